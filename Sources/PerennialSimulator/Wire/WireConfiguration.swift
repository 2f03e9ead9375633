/// The app facts Apple's notifications carry that the lifecycle does not model.
public struct WireConfiguration: Hashable, Sendable {
    /// The app's Apple id; Apple sends `appAppleId` in production only, so it is ignored in the
    /// sandbox.
    public var appAppleID: Int64?
    /// `bundleVersion` (V2) and `bvrs` (V1).
    public var bundleVersion: String?
    /// The `bundleVersion` V2 notifications carry when none is configured: Apple always states the
    /// app's CFBundleVersion.
    public static let defaultBundleVersion = "1"
    /// The app-specific shared secret V1 notifications carry as `password`.
    public var sharedSecret: String?

    /// A configuration; every fact is optional because Apple omits them in some environments.
    public init(appAppleID: Int64? = nil, bundleVersion: String? = nil, sharedSecret: String? = nil) {
        self.appAppleID = appAppleID
        self.bundleVersion = bundleVersion
        self.sharedSecret = sharedSecret
    }
}

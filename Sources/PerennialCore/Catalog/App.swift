/// One app of the catalog. Products and subscription groups belong to an app so that evidence for
/// another bundle can never unlock them.
public struct App: Hashable, Sendable, Codable {
    public let bundleID: String
    /// The app's Apple id (`appAppleId`), which production notifications carry; nil until the app
    /// is on the App Store.
    public let appAppleID: Int64?

    /// An app; `appAppleID` may be added once the app is on the App Store.
    public init(bundleID: String, appAppleID: Int64? = nil) {
        self.bundleID = bundleID
        self.appAppleID = appAppleID
    }
}

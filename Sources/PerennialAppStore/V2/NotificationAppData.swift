/// The `appData` of a RESCIND_CONSENT notification: the app and its signed app transaction.
public struct NotificationAppData: Codable, Hashable, Sendable {
    @Lenient<IntegerNumber<Int64>> public var appAppleId: Int64?
    public var bundleId: String?
    public var environment: AppleEnvironment?
    /// A JWS whose payload is an ``AppTransaction``.
    public var signedAppTransactionInfo: String?

    /// Creates app data.
    public init(
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        environment: AppleEnvironment? = nil,
        signedAppTransactionInfo: String? = nil
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}

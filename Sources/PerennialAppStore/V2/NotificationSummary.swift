/// The `summary` of a RENEWAL_EXTENSION/SUMMARY notification: the outcome of a mass
/// renewal-date extension request.
public struct NotificationSummary: Codable, Hashable, Sendable {
    public var environment: AppleEnvironment?
    @Lenient<IntegerNumber<Int64>> public var appAppleId: Int64?
    public var bundleId: String?
    public var productId: String?
    /// The identifier the developer gave the extension request.
    public var requestIdentifier: String?
    /// ISO 3166-1 alpha-3 codes the extension was limited to.
    public var storefrontCountryCodes: [String]?
    @Lenient<IntegerNumber<Int64>> public var succeededCount: Int64?
    @Lenient<IntegerNumber<Int64>> public var failedCount: Int64?

    /// Creates a summary.
    public init(
        environment: AppleEnvironment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        succeededCount: Int64? = nil,
        failedCount: Int64? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}

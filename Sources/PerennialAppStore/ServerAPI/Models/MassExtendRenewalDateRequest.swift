/// The body of Extend Subscription Renewal Dates for All Active Subscribers of one product.
public struct MassExtendRenewalDateRequest: Codable, Hashable, Sendable {
    @Lenient<IntegerNumber<Int>> public var extendByDays: Int?
    public var extendReasonCode: ExtendReasonCode?
    /// The developer's idempotency key, also used to query the status.
    public var requestIdentifier: String?
    /// ISO 3166-1 alpha-3 codes to limit the extension to; all storefronts when absent.
    public var storefrontCountryCodes: [String]?
    public var productId: String?

    /// Creates a request.
    public init(
        extendByDays: Int? = nil,
        extendReasonCode: ExtendReasonCode? = nil,
        requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        productId: String? = nil
    ) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.productId = productId
    }
}

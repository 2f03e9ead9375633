/// The body of Extend a Subscription Renewal Date (at most 90 days, twice a year per customer).
public struct ExtendRenewalDateRequest: Codable, Hashable, Sendable {
    @Lenient<IntegerNumber<Int>> public var extendByDays: Int?
    public var extendReasonCode: ExtendReasonCode?
    /// The developer's idempotency key for the request.
    public var requestIdentifier: String?

    /// Creates a request.
    public init(extendByDays: Int? = nil, extendReasonCode: ExtendReasonCode? = nil, requestIdentifier: String? = nil) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }
}

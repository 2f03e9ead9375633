/// The latest state of one subscription in a ``StatusResponse``: its status and its signed
/// transaction and renewal info.
public struct LastTransactionsItem: Codable, Hashable, Sendable {
    public var status: AppleSubscriptionStatus?
    @Lenient<IdentifierText> public var originalTransactionId: String?
    /// A JWS whose payload is a ``JWSTransactionDecodedPayload``.
    public var signedTransactionInfo: String?
    /// A JWS whose payload is a ``JWSRenewalInfoDecodedPayload``.
    public var signedRenewalInfo: String?

    /// Creates an item.
    public init(
        status: AppleSubscriptionStatus? = nil,
        originalTransactionId: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}

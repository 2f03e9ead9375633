/// One page of Get Refund History: refunded transactions in ascending revocation order.
public struct RefundHistoryResponse: Codable, Hashable, Sendable {
    /// JWS whose payloads are ``JWSTransactionDecodedPayload``s (at most 20).
    public var signedTransactions: [String]?
    public var revision: String?
    @Lenient<BooleanValue> public var hasMore: Bool?

    /// Creates a page.
    public init(signedTransactions: [String]? = nil, revision: String? = nil, hasMore: Bool? = nil) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }
}

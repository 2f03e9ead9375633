/// The answer of Look Up Order ID: the transactions of an order a customer quotes from their
/// invoice, so support can find a purchase without a receipt.
public struct OrderLookupResponse: Codable, Hashable, Sendable {
    public var status: OrderLookupStatus?
    /// JWS whose payloads are ``JWSTransactionDecodedPayload``s.
    public var signedTransactions: [String]?

    /// Creates a response.
    public init(status: OrderLookupStatus? = nil, signedTransactions: [String]? = nil) {
        self.status = status
        self.signedTransactions = signedTransactions
    }
}

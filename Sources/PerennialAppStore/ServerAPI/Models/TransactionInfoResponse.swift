/// The answer of Get Transaction Info: one signed transaction.
public struct TransactionInfoResponse: Codable, Hashable, Sendable {
    /// A JWS whose payload is a ``JWSTransactionDecodedPayload``.
    public var signedTransactionInfo: String?

    /// Creates a response.
    public init(signedTransactionInfo: String? = nil) {
        self.signedTransactionInfo = signedTransactionInfo
    }
}

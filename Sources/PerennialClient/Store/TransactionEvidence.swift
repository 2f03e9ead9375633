/// What the SDK hands the server as proof of a transaction.
public enum TransactionEvidence: Codable, Sendable, Hashable {
    /// StoreKit 2's `jwsRepresentation` (and the simulator's `signedTransaction`): posted to
    /// `/transactions`.
    case signedTransaction(String)
    /// StoreKit 1 has no per-transaction proof; the base64 app receipt at the time of the
    /// transaction is posted to `/receipts` instead.
    case appReceipt(String)
}

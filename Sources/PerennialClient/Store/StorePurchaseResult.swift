/// What the store says after the payment sheet closed.
public enum StorePurchaseResult: Sendable, Hashable {
    /// Paid: the transaction is unfinished in the store until the SDK finishes it.
    case purchased(StoreTransaction)
    /// Waiting for approval (Ask to Buy) or extra authentication; the transaction, if it ever
    /// comes, arrives through ``StoreBackend/transactionUpdates()``.
    case pending
    /// The user closed the sheet without paying.
    case userCancelled
}

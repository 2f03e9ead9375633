import Foundation

/// One journal entry: a transaction that was written down and not yet both acknowledged by the
/// server and finished with the store.
struct PendingTransaction: Codable, Sendable, Hashable {
    /// The journal's identity (``StoreTransaction/journalKey``).
    let key: String
    /// Its proof may be replaced by a newer receipt covering it (see ``PendingTransactionJournal``).
    var transaction: StoreTransaction
    /// The app user at the moment of recording: a later user switch does not move the purchase.
    let appUserID: String
    var origin: TransactionOrigin
    let recordedAt: Date
    /// Failed upload attempts so far.
    var failures: Int = 0
    /// Not uploaded before this instant (the backoff).
    var nextAttemptAt: Date
    /// The last upload failure, for diagnostics.
    var lastError: String?
    /// Set once the server acknowledged; only finishing with the store is left.
    var acknowledgedAt: Date?

    init(transaction: StoreTransaction, appUserID: String, origin: TransactionOrigin, recordedAt: Date) {
        self.key = transaction.journalKey
        self.transaction = transaction
        self.appUserID = appUserID
        self.origin = origin
        self.recordedAt = recordedAt
        self.nextAttemptAt = recordedAt
    }
}

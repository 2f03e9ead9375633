/// Which transactions each account's device has not finished yet: what StoreKit 2 replays through
/// `Transaction.unfinished` and `Transaction.updates` until the app calls `finish()`.
///
/// A transaction that changes after it was finished (a refund revokes it) becomes unfinished
/// again, because StoreKit delivers the new version as an update.
struct UnfinishedTransactions: Sendable {
    /// Transaction ids per account id, oldest first.
    private var byAccount: [String: [String]] = [:]

    /// Notes new or changed transactions of the store, each under the account holding it.
    mutating func note(_ transactions: [SimulatedTransaction], in state: SimulatorState) {
        for transaction in transactions {
            guard let account = state.lifecycle(originalTransactionID: transaction.originalTransactionID)?.account.id else { continue }
            var ids = byAccount[account, default: []]
            if !ids.contains(transaction.transactionID) { ids.append(transaction.transactionID) }
            byAccount[account] = ids
        }
    }

    /// Finishes one transaction; false when it was not unfinished for this account.
    mutating func finish(accountID: String, transactionID: String) -> Bool {
        guard let index = byAccount[accountID]?.firstIndex(of: transactionID) else { return false }
        byAccount[accountID]?.remove(at: index)
        return true
    }

    /// The account's unfinished transaction ids, oldest first.
    func ids(accountID: String) -> [String] { byAccount[accountID] ?? [] }
}

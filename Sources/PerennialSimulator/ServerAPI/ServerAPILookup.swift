import PerennialAppStore

/// Finding what a Server API request names in the store, with Apple's validation codes: ids are
/// decimal digits, anything of another app is "not found", and "the customer" of a transaction is
/// the account holding it.
struct ServerAPILookup {
    let state: SimulatorState
    let bundleID: String

    /// A transaction id as Apple accepts it: 1 to 32 decimal digits.
    static func isWellFormed(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 32 && id.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The transaction with this id and the subscription or purchase it belongs to.
    func transaction(_ id: String) throws(ServerAPIFailure) -> (lifecycle: SubscriptionLifecycle, transaction: SimulatedTransaction) {
        guard Self.isWellFormed(id) else { throw .invalidTransactionID }
        for lifecycle in state.lifecycles {
            if let transaction = lifecycle.transactions.first(where: { $0.transactionID == id }), transaction.bundleID == bundleID {
                return (lifecycle, transaction)
            }
        }
        throw .transactionIDNotFound
    }

    /// The subscription or purchase whose original transaction id this is.
    func originalTransaction(_ id: String) throws(ServerAPIFailure) -> SubscriptionLifecycle {
        guard Self.isWellFormed(id) else { throw .invalidOriginalTransactionID }
        guard let lifecycle = state.lifecycle(originalTransactionID: id), lifecycle.latestTransaction.bundleID == bundleID else {
            throw .originalTransactionIDNotFound
        }
        return lifecycle
    }

    /// Every subscription and purchase of the account holding `lifecycle`, in creation order.
    func customerLifecycles(of lifecycle: SubscriptionLifecycle) -> [SubscriptionLifecycle] {
        state.lifecycles.filter { $0.account.id == lifecycle.account.id && $0.latestTransaction.bundleID == bundleID }
    }

    /// Every transaction of the customer who holds transaction `id`.
    func customerTransactions(ofTransaction id: String) throws(ServerAPIFailure) -> [SimulatedTransaction] {
        customerLifecycles(of: try transaction(id).lifecycle).flatMap(\.transactions)
    }
}

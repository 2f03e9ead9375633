import PerennialCore

/// Finding things by id and handing out new ids, shared by every action.
extension SimulatorState {
    func index(of originalTransactionID: String) throws(LifecycleError) -> Int {
        guard let index = lifecycles.firstIndex(where: { $0.originalTransactionID == originalTransactionID }) else {
            throw .unknownSubscription(originalTransactionID: originalTransactionID)
        }
        return index
    }

    /// The lifecycle and position of a transaction.
    func position(ofTransaction transactionID: String) throws(LifecycleError) -> (lifecycle: Int, transaction: Int) {
        for (lifecycleIndex, lifecycle) in lifecycles.enumerated() {
            if let transactionIndex = lifecycle.transactions.firstIndex(where: { $0.transactionID == transactionID }) {
                return (lifecycleIndex, transactionIndex)
            }
        }
        throw .unknownTransaction(transactionID: transactionID)
    }

    func product(_ productID: String) throws(LifecycleError) -> Product {
        guard let product = configuration.catalog.product(id: productID) else { throw .unknownProduct(productID: productID) }
        return product
    }

    /// A product a customer may buy now.
    func sellableProduct(_ productID: String) throws(LifecycleError) -> Product {
        let product = try product(productID)
        guard !productsNotForSale.contains(productID) else { throw .productNotForSale(productID: productID) }
        return product
    }

    /// The lifecycle at `index`, required to be an auto-renewable subscription.
    func subscription(at index: Int) throws(LifecycleError) -> SubscriptionLifecycle {
        let lifecycle = lifecycles[index]
        guard lifecycle.isAutoRenewable else { throw .notAutoRenewable(productID: lifecycle.latestTransaction.productID) }
        return lifecycle
    }

    /// The lifecycle at `index`, required to be an auto-renewable that still grants access.
    func activeSubscription(at index: Int) throws(LifecycleError) -> SubscriptionLifecycle {
        let lifecycle = try subscription(at: index)
        guard lifecycle.grantsAccess else {
            throw .subscriptionNotActive(originalTransactionID: lifecycle.originalTransactionID, status: lifecycle.status)
        }
        return lifecycle
    }

    mutating func newTransactionID() -> String {
        defer { nextTransactionID += 1 }
        return String(nextTransactionID)
    }

    mutating func newWebOrderLineItemID() -> String {
        defer { nextWebOrderLineItemID += 1 }
        return String(nextWebOrderLineItemID)
    }

    static func validate(_ account: SandboxAccount) throws(LifecycleError) {
        if let probability = account.renewalBehavior.invalidProbability { throw .invalidFailureProbability(probability) }
    }
}

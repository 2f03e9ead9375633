import Foundation

/// Collects the entitlement grants of a subscriber's purchases while a view is derived (and an
/// operator's ``EntitlementGrant``s after), keeping the best grant per entitlement in catalog order.
struct EntitlementGrants {
    private(set) var states: [EntitlementState] = []

    init(states: [EntitlementState] = []) {
        self.states = states
    }

    /// Offers a grant of every entitlement of the product at `productIndex`.
    mutating func grant(
        _ product: Product, catalog: Catalog, isActive: Bool, expiresDate: Date?, originalTransactionID: String, transactionID: String
    ) {
        for entitlementIndex in product.entitlementIndices {
            offer(
                EntitlementState(
                    entitlementID: catalog.entitlements[entitlementIndex].id,
                    isActive: isActive,
                    expiresDate: expiresDate,
                    productID: product.id,
                    originalTransactionID: originalTransactionID,
                    transactionID: transactionID,
                    catalogOrder: entitlementIndex))
        }
    }

    /// Keeps `candidate` when no state of its entitlement outranks it.
    mutating func offer(_ candidate: EntitlementState) {
        var position = 0
        while position < states.count, states[position].catalogOrder < candidate.catalogOrder { position += 1 }
        if position < states.count, states[position].catalogOrder == candidate.catalogOrder {
            if candidate.outranks(states[position]) { states[position] = candidate }
        } else {
            states.insert(candidate, at: position)
        }
    }
}

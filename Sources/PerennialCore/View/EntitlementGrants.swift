import Foundation

/// Collects the entitlement grants of a subscriber's purchases while a view is derived, keeping
/// the best grant per entitlement in catalog order.
struct EntitlementGrants {
    private(set) var states: [EntitlementState] = []

    /// Offers a grant of every entitlement of the product at `productIndex`.
    mutating func grant(
        _ product: Product, catalog: Catalog, isActive: Bool, expiresDate: Date?, originalTransactionID: String, transactionID: String
    ) {
        for entitlementIndex in product.entitlementIndices {
            let candidate = EntitlementState(
                entitlementID: catalog.entitlements[entitlementIndex].id,
                isActive: isActive,
                expiresDate: expiresDate,
                productID: product.id,
                originalTransactionID: originalTransactionID,
                transactionID: transactionID,
                catalogOrder: entitlementIndex)
            var position = 0
            while position < states.count, states[position].catalogOrder < entitlementIndex { position += 1 }
            if position < states.count, states[position].catalogOrder == entitlementIndex {
                if candidate.outranks(states[position]) { states[position] = candidate }
            } else {
                states.insert(candidate, at: position)
            }
        }
    }
}

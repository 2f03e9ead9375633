import Foundation

extension SubscriberEngine {
    /// `view` with an operator's grants counted beside its purchases' entitlements, judged at the
    /// view's instant: an active grant outranks an inactive purchase and the other way round, and
    /// between two active ones the longer access wins, as between two purchases.
    ///
    /// A grant of an entitlement the catalog no longer has is left out (it was checked when given).
    public func view(_ view: SubscriberView, granting grants: [EntitlementGrant]) -> SubscriberView {
        guard !grants.isEmpty else { return view }
        var states = view.entitlements
        for index in states.indices {
            states[index].catalogOrder = catalog.entitlements.firstIndex { $0.id == states[index].entitlementID } ?? Int.max
        }
        var collected = EntitlementGrants(states: states)
        for grant in grants {
            guard let order = catalog.entitlements.firstIndex(where: { $0.id == grant.entitlementID }) else { continue }
            let isActive = grant.isActive(at: view.date)
            collected.offer(
                EntitlementState(
                    entitlementID: grant.entitlementID, isActive: isActive,
                    expiresDate: grant.accessEndsAt, productID: EntitlementGrant.productID,
                    originalTransactionID: grant.id, transactionID: grant.id, grantID: grant.id, catalogOrder: order))
        }
        var granted = view
        granted.entitlements = collected.states
        return granted
    }
}

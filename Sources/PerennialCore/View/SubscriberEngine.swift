public import Foundation

/// The heart of Perennial: answers, for one app user at one instant, which subscriptions exist and
/// in what state, which entitlements are active, which offers the user may still get, and what
/// changed since the previous answer.
///
/// Pure: no I/O, no clock — `now` is a parameter, because only server time decides and the same
/// records at the same instant must always give the same view. Every other part of Perennial asks
/// this engine; none decides subscription state on its own.
public struct SubscriberEngine: Sendable {
    /// What the app sells; decides product types, groups, plan-change kinds and entitlements.
    public let catalog: Catalog
    /// Every catalog group eligible: the starting point of each view's eligibility list.
    private let eligibilityTemplate: [IntroOfferEligibility]

    /// An engine for one validated catalog; build it once and share it (it is a value, `Sendable`).
    public init(catalog: Catalog) {
        self.catalog = catalog
        self.eligibilityTemplate = catalog.subscriptionGroups.map { IntroOfferEligibility(subscriptionGroupID: $0.id, isEligible: true) }
    }

    /// The subscriber's view at `now` from the merged records.
    ///
    /// A transaction whose product is missing from the catalog is still reported, with what its
    /// own record says (type, group); it grants no entitlement.
    public func view(of records: RecordSet, at now: Date) -> SubscriberView {
        var subscriptions: [SubscriptionState] = []
        var purchases: [PurchaseState] = []
        var grants = EntitlementGrants()
        var eligibility = eligibilityTemplate
        for ledger in records.ledgers {
            guard let last = ledger.transactions.last else { continue }
            let lastProductIndex = catalog.productIndex[last.productID]
            let type = catalog.productType(of: last)
            if type == .autoRenewable {
                let derived = deriveSubscription(ledger, at: now)
                let state = derived.state
                if derived.usedIntroductoryOffer, let groupID = state.subscriptionGroupID {
                    markIntroductoryOfferUsed(groupID: groupID, productIndex: derived.productIndex, in: &eligibility)
                }
                if let productIndex = derived.productIndex {
                    grants.grant(
                        catalog.products[productIndex], catalog: catalog, isActive: state.grantsAccess,
                        expiresDate: state.accessExpiresDate ?? state.revocation?.date ?? state.expiresDate,
                        originalTransactionID: state.originalTransactionID, transactionID: state.transactionID)
                }
                subscriptions.append(state)
            } else {
                let purchase = derivePurchase(ledger, type: type, productIndex: lastProductIndex, at: now)
                if let productIndex = catalog.productIndex[purchase.productID] {
                    grants.grant(
                        catalog.products[productIndex], catalog: catalog, isActive: purchase.isActive,
                        expiresDate: purchase.isActive ? purchase.expiresDate : (purchase.revocation?.date ?? purchase.expiresDate),
                        originalTransactionID: purchase.originalTransactionID, transactionID: purchase.transactionID)
                }
                purchases.append(purchase)
            }
        }
        return SubscriberView(
            date: now, subscriptions: subscriptions, purchases: purchases, entitlements: grants.states,
            introOfferEligibility: eligibility)
    }

    /// The events that lead from `old` (nil for a subscriber seen for the first time) to `new`.
    public func events(from old: SubscriberView?, to new: SubscriberView) -> [SubscriberEvent] {
        EventDeriver(catalog: catalog).events(from: old, to: new)
    }

    private func markIntroductoryOfferUsed(groupID: String, productIndex: Int?, in eligibility: inout [IntroOfferEligibility]) {
        if let productIndex, let groupIndex = catalog.products[productIndex].groupIndex {
            eligibility[groupIndex].isEligible = false
        } else if let index = eligibility.firstIndex(where: { $0.subscriptionGroupID == groupID }) {
            eligibility[index].isEligible = false
        } else {
            eligibility.append(IntroOfferEligibility(subscriptionGroupID: groupID, isEligible: false))
        }
    }
}

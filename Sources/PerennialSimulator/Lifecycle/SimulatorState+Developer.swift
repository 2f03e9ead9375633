import Foundation
import PerennialAppStore
import PerennialCore

/// What the developer does in App Store Connect or through the Server API: price increases,
/// renewal date extensions, removing a product from sale — and the customer's answer to a price
/// increase.
extension SimulatorState {
    mutating func priceIncrease(
        productID: String, price: Money, requiresConsent: Bool, _ effects: inout Effects
    ) throws(LifecycleError) {
        let product = try product(productID)
        guard product.type == .autoRenewable else { throw .notAutoRenewable(productID: productID) }
        configuration.prices[productID] = price
        for index in lifecycles.indices {
            let lifecycle = lifecycles[index]
            guard lifecycle.ownership == .purchased, lifecycle.autoRenewProductID == productID,
                lifecycle.status != .expired, lifecycle.status != .revoked
            else { continue }
            lifecycles[index].renewalPrice = price
            lifecycles[index].priceIncreaseStatus = requiresConsent ? .pending : .accepted
            lifecycles[index].declinedPriceIncrease = false
            effects.touch(index)
            effects.notify(.priceIncrease, requiresConsent ? .pending : .accepted, about: lifecycles[index], at: now)
        }
    }

    /// Accepting is notified at once; declining is silent until the period ends and the
    /// subscription expires with PRICE_INCREASE.
    mutating func consentToPriceIncrease(_ index: Int, accept: Bool, _ effects: inout Effects) throws(LifecycleError) {
        let lifecycle = lifecycles[index]
        guard lifecycle.priceIncreaseStatus == .pending, !lifecycle.declinedPriceIncrease else {
            throw .noPendingPriceIncrease(originalTransactionID: lifecycle.originalTransactionID)
        }
        if accept {
            lifecycles[index].priceIncreaseStatus = .accepted
            effects.touch(index)
            effects.notify(.priceIncrease, .accepted, about: lifecycles[index], at: now)
        } else {
            lifecycles[index].declinedPriceIncrease = true
        }
    }

    /// Moves the current period's end later by `days`, scaled like every period (Apple allows
    /// 1 to 90 days, for active subscriptions only).
    mutating func extendRenewalDate(
        _ index: Int, days: Int, reason: RenewalExtensionReason, _ effects: inout Effects
    ) throws(LifecycleError) {
        guard (1...90).contains(days) else { throw .invalidExtensionDays(days) }
        let lifecycle = try subscription(at: index)
        guard lifecycle.status == .active, let expires = lifecycle.latestTransaction.expiresDate else {
            throw .subscriptionNotActive(originalTransactionID: lifecycle.originalTransactionID, status: lifecycle.status)
        }
        let last = lifecycle.transactions.count - 1
        lifecycles[index].transactions[last].expiresDate = expires.addingTimeInterval(configuration.timeScale.interval(days: days))
        lifecycles[index].renewalExtensions.append(RenewalExtension(days: days, reason: reason, date: now))
        effects.record(lifecycles[index].transactions[last], lifecycle: index)
        effects.notify(.renewalExtended, about: lifecycles[index], at: now)
    }

    /// Replaces the app account token of a purchase and of all its transactions, so every answer
    /// signed from now on carries it; Family Sharing access belongs to the member, not the
    /// developer's account, so it cannot be rebound.
    mutating func setAppAccountToken(_ index: Int, token: UUID, _ effects: inout Effects) throws(LifecycleError) {
        guard lifecycles[index].ownership == .purchased else {
            throw .familySharedAccountToken(originalTransactionID: lifecycles[index].originalTransactionID)
        }
        lifecycles[index].appAccountToken = token
        for position in lifecycles[index].transactions.indices {
            lifecycles[index].transactions[position].appAccountToken = token
            effects.record(lifecycles[index].transactions[position], lifecycle: index)
        }
    }

    /// Stops selling a product; nothing is notified until its subscriptions reach renewal.
    mutating func removeFromSale(productID: String) throws(LifecycleError) {
        _ = try sellableProduct(productID)
        productsNotForSale.insert(productID)
    }
}

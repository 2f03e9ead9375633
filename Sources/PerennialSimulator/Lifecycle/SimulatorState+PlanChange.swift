import Foundation
import PerennialAppStore
import PerennialCore

/// The customer's choices about the next renewal: auto-renew on or off, and moving within the
/// subscription group. The catalog decides whether a move is immediate, as Apple does.
extension SimulatorState {
    mutating func setAutoRenew(_ index: Int, enabled: Bool, _ effects: inout Effects) throws(LifecycleError) {
        let lifecycle = try subscription(at: index)
        guard lifecycle.status != .expired, lifecycle.status != .revoked else {
            throw .subscriptionNotActive(originalTransactionID: lifecycle.originalTransactionID, status: lifecycle.status)
        }
        guard lifecycle.willAutoRenew != enabled else {
            throw .autoRenewUnchanged(originalTransactionID: lifecycle.originalTransactionID, enabled: enabled)
        }
        lifecycles[index].willAutoRenew = enabled
        effects.touch(index)
        effects.notify(
            .didChangeRenewalStatus, enabled ? .autoRenewEnabled : .autoRenewDisabled, about: lifecycles[index], at: now)
    }

    mutating func changeProduct(_ index: Int, to productID: String, _ effects: inout Effects) throws(LifecycleError) {
        let lifecycle = try activeSubscription(at: index)
        guard lifecycle.billingPlan != .monthly else { throw .planChangeOnCommitment(originalTransactionID: lifecycle.originalTransactionID) }
        let current = lifecycle.latestTransaction.productID
        if productID == current, lifecycle.autoRenewProductID != current {
            try cancelPendingChange(index, &effects)
            return
        }
        let target = try sellableProduct(productID)
        guard productID != current, configuration.catalog.planChangeKind(from: current, to: productID) != nil else {
            throw .notAPlanChange(from: current, to: productID)
        }
        if configuration.catalog.planChangeIsImmediate(from: current, to: productID) {
            upgrade(index, to: target, &effects)
        } else {
            lifecycles[index].autoRenewProductID = productID
            lifecycles[index].renewalPrice = configuration.prices[productID]
            effects.touch(index)
            effects.notify(.didChangeRenewalPref, .downgrade, about: lifecycles[index], at: now)
        }
    }

    /// Apple's immediate change (an upgrade, or a crossgrade between equal durations, both sent
    /// as UPGRADE): the current period is marked upgraded and refunded pro rata, and a new
    /// period of the target starts now.
    private mutating func upgrade(_ index: Int, to target: Product, _ effects: inout Effects) {
        let last = lifecycles[index].transactions.count - 1
        var old = lifecycles[index].transactions[last]
        old.isUpgraded = true
        if let price = old.price, let share = unusedShare(of: old) {
            old.upgradeRefund = Money(milliUnits: price.milliUnits * Int64(share) / 100_000, currency: price.currency)
        }
        lifecycles[index].transactions[last] = old
        effects.record(old, lifecycle: index)

        let transaction = makeTransaction(
            product: target, holder: Holder(lifecycles[index]), start: now, expires: periodEnd(of: target, from: now),
            reason: .purchase, price: configuration.prices[target.id])
        lifecycles[index].transactions.append(transaction)
        lifecycles[index].status = .active
        lifecycles[index].billingFailure = nil
        lifecycles[index].autoRenewProductID = target.id
        lifecycles[index].renewalPrice = configuration.prices[target.id]
        lifecycles[index].priceIncreaseStatus = nil
        lifecycles[index].declinedPriceIncrease = false
        effects.record(transaction, lifecycle: index)
        effects.notify(.didChangeRenewalPref, .upgrade, about: lifecycles[index], at: now)
    }

    mutating func cancelPendingChange(_ index: Int, _ effects: inout Effects) throws(LifecycleError) {
        let lifecycle = try activeSubscription(at: index)
        let current = lifecycle.latestTransaction.productID
        guard lifecycle.autoRenewProductID != current else {
            throw .noPendingPlanChange(originalTransactionID: lifecycle.originalTransactionID)
        }
        lifecycles[index].autoRenewProductID = current
        lifecycles[index].renewalPrice = configuration.prices[current]
        effects.touch(index)
        effects.notify(.didChangeRenewalPref, about: lifecycles[index], at: now)
    }
}

import Foundation
import PerennialAppStore
import PerennialCore

/// The passing of time: every due event up to the target instant, earliest first, ties in
/// creation order, so the notification sequence is the same on every run.
extension SimulatorState {
    mutating func advance(to requested: Date, _ effects: inout Effects) throws(LifecycleError) {
        let instant = requested.wholeMilliseconds
        guard instant >= now else { throw .timeMovesBackwards(now: now, requested: instant) }
        while let (index, date, event) = earliestDueEvent(notAfter: instant) {
            // An event already overdue (after a refund reversal, say) happens now, not in the past.
            now = max(now, date)
            switch event {
            case .periodEnd: endPeriod(index, renewalDate: date, &effects)
            case .gracePeriodEnd: endGracePeriod(index, &effects)
            case .billingRetryEnd: expire(index, reason: .billingError, subtype: .billingRetry, &effects)
            }
        }
        now = instant
    }

    private func earliestDueEvent(notAfter limit: Date) -> (Int, Date, DueEvent)? {
        var earliest: (Int, Date, DueEvent)?
        for (index, lifecycle) in lifecycles.enumerated() {
            guard let (date, event) = lifecycle.nextDueEvent, date <= limit else { continue }
            if earliest.map({ date < $0.1 }) ?? true { earliest = (index, date, event) }
        }
        return earliest
    }

    /// The renewal moment: the first reason not to renew wins, else the charge is attempted.
    private mutating func endPeriod(_ index: Int, renewalDate: Date, _ effects: inout Effects) {
        let lifecycle = lifecycles[index]
        if !lifecycle.willAutoRenew && !lifecycle.isCommitted(after: renewalDate) {
            expire(index, reason: .voluntary, subtype: .voluntary, &effects)
        } else if productsNotForSale.contains(lifecycle.autoRenewProductID) {
            expire(index, reason: .productUnavailable, subtype: .productNotForSale, &effects)
        } else if lifecycle.declinedPriceIncrease || lifecycle.priceIncreaseStatus == .pending {
            expire(index, reason: .declinedPriceIncrease, subtype: .priceIncrease, &effects)
        } else if lifecycle.renewalCount >= configuration.renewalLimit {
            // The sandbox simply stops renewing, which testers see as auto-renew turned off.
            expire(index, reason: .voluntary, subtype: .voluntary, &effects)
        } else if let grace = failedChargeGrace(index) {
            failRenewal(index, renewalDate: renewalDate, grace: grace, &effects)
        } else {
            renew(index, start: renewalDate, subtype: nil, &effects)
        }
    }

    /// Nil when the renewal charge succeeds; otherwise whether the failure opens a grace period.
    private mutating func failedChargeGrace(_ index: Int) -> Bool? {
        if let forced = lifecycles[index].forcedBillingFailure { return forced.grace }
        if lifecycles[index].billingAccount.renewalBehavior.chargeSucceeds(using: &generator) { return nil }
        return configuration.billingGracePeriodDays != nil
    }

    private mutating func failRenewal(_ index: Int, renewalDate: Date, grace: Bool, _ effects: inout Effects) {
        let scale = configuration.timeScale
        let graceDays = configuration.billingGracePeriodDays ?? SimulatorConfiguration.defaultGracePeriodDays
        lifecycles[index].billingFailure = BillingFailure(
            failedRenewalDate: renewalDate,
            gracePeriodExpiresDate: grace ? renewalDate.addingTimeInterval(scale.interval(days: graceDays)) : nil,
            billingRetryEndDate: renewalDate.addingTimeInterval(scale.interval(days: configuration.billingRetryDays)))
        lifecycles[index].status = grace ? .gracePeriod : .billingRetry
        effects.touch(index)
        effects.notify(.didFailToRenew, grace ? .gracePeriod : nil, about: lifecycles[index], at: now)
    }

    private mutating func endGracePeriod(_ index: Int, _ effects: inout Effects) {
        lifecycles[index].status = .billingRetry
        effects.touch(index)
        effects.notify(.gracePeriodExpired, about: lifecycles[index], at: now)
    }

    /// Starts the next period at `start` into the auto-renew product (applying a pending
    /// downgrade or crossgrade) at the renewal price.
    mutating func renew(_ index: Int, start: Date, subtype: NotificationSubtypeV2?, _ effects: inout Effects) {
        let lifecycle = lifecycles[index]
        guard let product = configuration.catalog.product(id: lifecycle.autoRenewProductID) else {
            // Only reachable with a catalog that lost the product: Apple treats that as not for sale.
            expire(index, reason: .productUnavailable, subtype: .productNotForSale, &effects)
            return
        }
        // A monthly plan goes on month by month, into a new commitment once one ends.
        let month = lifecycle.billingPlan == .monthly ? commitmentMonth(of: product, at: start, after: lifecycle) : nil
        let transaction: SimulatedTransaction
        if let month {
            transaction = makeCommitmentTransaction(product: product, holder: Holder(lifecycle), start: start, month: month, reason: .renewal)
        } else {
            transaction = makeTransaction(
                product: product, holder: Holder(lifecycle), start: start, expires: periodEnd(of: product, from: start),
                reason: .renewal, price: lifecycle.renewalPrice)
        }
        lifecycles[index].transactions.append(transaction)
        lifecycles[index].billed(by: month)
        lifecycles[index].status = .active
        lifecycles[index].billingFailure = nil
        lifecycles[index].renewalCount += 1
        effects.record(transaction, lifecycle: index)
        effects.notify(.didRenew, subtype, about: lifecycles[index], at: now)
    }

    mutating func expire(
        _ index: Int, reason: ExpirationReason, subtype: NotificationSubtypeV2, _ effects: inout Effects
    ) {
        lifecycles[index].status = .expired
        lifecycles[index].expirationReason = reason
        lifecycles[index].willAutoRenew = false
        lifecycles[index].billingFailure = nil
        // A lapsed purchaser may be offered the product's win-back offers; a family member may not.
        if lifecycles[index].ownership == .purchased {
            lifecycles[index].eligibleWinBackOfferIDs = configuration.winBackOfferIDs[lifecycles[index].autoRenewProductID] ?? []
        }
        effects.touch(index)
        effects.notify(.expired, subtype, about: lifecycles[index], at: now)
    }
}

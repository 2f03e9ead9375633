import Foundation

/// Turns the difference between two subscriber views into events.
///
/// Transaction-level facts (a new period, a refund, its reversal, an extension) come from
/// comparing the subscriptions' histories version by version; renewal-level facts (auto-renew
/// toggled, billing trouble, a scheduled plan change, a price increase, an expiry) from comparing
/// the derived states. Notification types are never consulted: the records are the truth.
public struct EventDeriver: Sendable {
    public let catalog: Catalog

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The events leading from `old` (nil: nothing known before) to `new`, in the order they
    /// happened (ties keep derivation order).
    public func events(from old: SubscriberView?, to new: SubscriberView) -> [SubscriberEvent] {
        var events: [SubscriberEvent] = []
        var oldSubscriptions: [String: SubscriptionState] = [:]
        for subscription in old?.subscriptions ?? [] { oldSubscriptions[subscription.originalTransactionID] = subscription }
        for subscription in new.subscriptions {
            subscriptionEvents(from: oldSubscriptions[subscription.originalTransactionID], to: subscription, into: &events)
        }
        var oldPurchases: [String: PurchaseState] = [:]
        for purchase in old?.purchases ?? [] { oldPurchases[purchase.originalTransactionID] = purchase }
        for purchase in new.purchases {
            purchaseEvents(from: oldPurchases[purchase.originalTransactionID], to: purchase, into: &events)
        }
        return events.enumerated()
            .sorted { ($0.element.occurredAt, $0.offset) < ($1.element.occurredAt, $1.offset) }
            .map(\.element)
    }

    // MARK: Subscriptions

    private func subscriptionEvents(from old: SubscriptionState?, to new: SubscriptionState, into events: inout [SubscriberEvent]) {
        var oldVersions: [String: Transaction] = [:]
        for transaction in old?.history ?? [] { oldVersions[transaction.transactionID] = transaction }
        for index in new.history.indices {
            let transaction = new.history[index]
            if let before = oldVersions[transaction.transactionID] {
                versionEvents(from: before, to: transaction, periodType: PeriodType(offer: transaction.offer), into: &events)
            } else {
                periodEvents(new.history, at: index, oldStatus: old?.status, into: &events)
                if let revocation = transaction.revocation {
                    events.append(revocationEvent(revocation, of: transaction, periodType: PeriodType(offer: transaction.offer)))
                }
            }
        }
        stateEvents(from: old, to: new, into: &events)
    }

    /// Events of a transaction seen for the first time: the period it starts.
    private func periodEvents(_ history: [Transaction], at index: Int, oldStatus: SubscriptionStatus?, into events: inout [SubscriberEvent]) {
        let transaction = history[index]
        let periodType = PeriodType(offer: transaction.offer)
        let previous = index > 0 ? history[index - 1] : nil
        var planChange: PlanChange?
        if let previous, previous.productID != transaction.productID {
            planChange = PlanChange(
                kind: catalog.planChangeKind(from: previous.productID, to: transaction.productID),
                fromProductID: previous.productID, toProductID: transaction.productID, effectiveDate: transaction.purchaseDate)
        }
        let kind: EventKind
        var isNewPurchase = false
        switch TransactionStep(history, at: index) {
        case .first:
            kind = periodType == .freeTrial ? .trialStarted : .initialPurchase
            isNewPurchase = true
        case .planChange:
            kind = .productChanged
            isNewPurchase = true
        case .renewal:
            // A grace-period recovery keeps the renewal date, so it shows no gap: the previous view
            // being in billing trouble is what tells it from an ordinary renewal.
            let wasInBilling = oldStatus == .inBillingRetry || oldStatus == .inGracePeriod
            let wasIntroductory = previous.map { PeriodType(offer: $0.offer).isIntroductory } ?? false
            if wasInBilling && index == history.count - 1 {
                kind = .billingRecovered
            } else {
                kind = wasIntroductory && !periodType.isIntroductory ? .trialConverted : .renewal
            }
        case .billingRecovery:
            kind = .billingRecovered
        case .resubscription:
            kind = .resubscription
            isNewPurchase = true
        case .afterGap:
            let wasInBilling = oldStatus == .inBillingRetry || oldStatus == .inGracePeriod
            kind = wasInBilling ? .billingRecovered : .resubscription
            isNewPurchase = !wasInBilling
        }
        events.append(event(kind, at: transaction.purchaseDate, of: transaction, periodType: periodType, planChange: planChange))
        if isNewPurchase, let offer = transaction.offer, offer.type != .introductory {
            events.append(event(.offerRedeemed, at: transaction.purchaseDate, of: transaction, periodType: periodType, offer: offer))
        }
    }

    /// Events of a newer version of a transaction already known: refund, reversal, extension.
    private func versionEvents(from before: Transaction, to after: Transaction, periodType: PeriodType?, into events: inout [SubscriberEvent]) {
        if before.revocation == nil, let revocation = after.revocation {
            events.append(revocationEvent(revocation, of: after, periodType: periodType))
        } else if before.revocation != nil, after.revocation == nil {
            events.append(event(.refundReversed, at: after.provenance.versionDate, of: after, periodType: periodType))
        } else if after.revocation == nil, let oldEnd = before.expiresDate, let newEnd = after.expiresDate, newEnd > oldEnd {
            events.append(event(.renewalExtended, at: after.provenance.versionDate, of: after, periodType: periodType))
        }
    }

    /// Events visible only in the derived states: renewal preferences, billing, expiry.
    private func stateEvents(from old: SubscriptionState?, to new: SubscriptionState, into events: inout [SubscriberEvent]) {
        let oldStatus = old?.status
        let renewalDate = new.renewalInfoDate ?? new.periodStart
        let ended = new.status == .expired || new.status == .revoked
        func add(_ kind: EventKind, at date: Date, planChange: PlanChange? = nil, reason: ExpirationReason? = nil, offer: Offer? = nil) {
            events.append(
                SubscriberEvent(
                    kind: kind, occurredAt: date, originalTransactionID: new.originalTransactionID, transactionID: new.transactionID,
                    productID: new.productID, price: new.price, environment: new.environment, periodType: new.periodType,
                    planChange: planChange, expirationReason: reason, offer: offer))
        }

        let wasInBilling = oldStatus == .inBillingRetry || oldStatus == .inGracePeriod
        if new.status == .inBillingRetry || new.status == .inGracePeriod, !wasInBilling {
            add(.billingIssue, at: new.expiresDate)
        }
        if new.status == .inGracePeriod, oldStatus != .inGracePeriod {
            add(.gracePeriodStarted, at: new.expiresDate)
        }
        if oldStatus == .inGracePeriod, new.status == .inBillingRetry {
            add(.gracePeriodExpired, at: old?.gracePeriodExpiresDate ?? new.expiresDate)
        }
        if new.status == .expired, oldStatus != .expired {
            add(.expiration, at: new.expiresDate, reason: new.expirationReason)
        }

        // Auto-renew toggles count only while the subscription runs on both sides: a resubscription
        // turns it back on without being an "un-cancellation", an expiry turns it off without
        // being a "cancellation".
        let oldRunning = old.map { $0.status != .expired && $0.status != .revoked } ?? true
        if !ended, oldRunning, let autoRenew = new.autoRenewEnabled, autoRenew != (old?.autoRenewEnabled ?? true) {
            add(autoRenew ? .uncancellation : .cancellation, at: renewalDate)
        }
        if let change = new.pendingChange, change.toProductID != old?.pendingChange?.toProductID {
            add(.productChangeScheduled, at: renewalDate, planChange: change)
        } else if new.pendingChange == nil, new.willRenew, let withdrawn = old?.pendingChange, new.productID != withdrawn.toProductID {
            add(.productChangeCancelled, at: renewalDate, planChange: withdrawn)
        }
        if let status = new.priceIncreaseStatus, status != old?.priceIncreaseStatus {
            if status == .pending {
                add(.priceIncreasePending, at: renewalDate)
            } else if status == .accepted {
                add(.priceIncreaseAccepted, at: renewalDate)
            }
        }
        if let offer = new.renewalOffer, offer.type != .introductory, offer != old?.renewalOffer {
            add(.offerRedeemed, at: renewalDate, offer: offer)
        }
    }

    // MARK: One-time purchases

    private func purchaseEvents(from old: PurchaseState?, to new: PurchaseState, into events: inout [SubscriberEvent]) {
        let transaction = new.transaction
        guard let old else {
            let kind: EventKind = new.productType == .nonRenewing ? .nonRenewingPurchase : .oneTimePurchase
            events.append(event(kind, at: transaction.purchaseDate, of: transaction, periodType: nil))
            if let revocation = transaction.revocation {
                events.append(revocationEvent(revocation, of: transaction, periodType: nil))
            }
            return
        }
        if old.transactionID == new.transactionID {
            versionEvents(from: old.transaction, to: transaction, periodType: nil, into: &events)
        }
    }

    // MARK: Building events

    private func revocationEvent(_ revocation: Revocation, of transaction: Transaction, periodType: PeriodType?) -> SubscriberEvent {
        let isFamilyRevoke = revocation.type == .familyRevoke || (revocation.type == nil && transaction.ownership == .familyShared)
        var refund = event(isFamilyRevoke ? .familyRevoke : .refund, at: revocation.date, of: transaction, periodType: periodType)
        refund.revocation = revocation
        return refund
    }

    private func event(
        _ kind: EventKind, at date: Date, of transaction: Transaction, periodType: PeriodType?, planChange: PlanChange? = nil, offer: Offer? = nil
    ) -> SubscriberEvent {
        SubscriberEvent(
            kind: kind, occurredAt: date, originalTransactionID: transaction.originalTransactionID,
            transactionID: transaction.transactionID, productID: transaction.productID, price: transaction.price,
            environment: transaction.environment, periodType: periodType, planChange: planChange, offer: offer)
    }
}

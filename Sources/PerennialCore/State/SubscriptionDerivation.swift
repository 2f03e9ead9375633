import Foundation

extension SubscriberEngine {
    /// What deriving one subscription yields besides its state: facts the view needs about the
    /// whole history.
    struct DerivedSubscription {
        var state: SubscriptionState
        /// Any transaction of the subscription used an introductory offer.
        var usedIntroductoryOffer: Bool
        /// The catalog index of the current product.
        var productIndex: Int?
    }

    /// Derives one auto-renewable subscription from its ledger at `now`.
    ///
    /// The current period is paid by the latest transaction (in purchase order) that was not
    /// superseded by an upgrade, so an upgrade counts at once, a scheduled downgrade not before its
    /// renewal transaction exists, and a refund of an earlier period leaves the current one alone.
    /// `history` must not be empty.
    func deriveSubscription(_ ledger: SubscriptionLedger, at now: Date) -> DerivedSubscription {
        let history = ledger.transactions
        let summary = ledger.summary
        let current = history[summary.currentIndex]
        let productIndex = catalog.productIndex[current.productID]
        let groupID = productIndex.flatMap { catalog.products[$0].subscriptionGroupID } ?? current.subscriptionGroupID
        let expiresDate = current.expiresDate ?? current.purchaseDate

        // Renewal info signed before the current period began speaks about an earlier period: its
        // billing-retry flag and pending product no longer apply.
        let info = ledger.renewalInfo
        let infoIsCurrent = info.map { $0.provenance.versionDate >= current.purchaseDate } ?? false

        let status: SubscriptionStatus
        if let revocation = current.revocation, revocation.date <= now {
            status = .revoked
        } else if expiresDate > now {
            status = .active
        } else if let info, infoIsCurrent, info.isInBillingRetry {
            if let graceEnd = info.gracePeriodExpiresDate, graceEnd > now {
                status = .inGracePeriod
            } else {
                status = .inBillingRetry
            }
        } else {
            status = .expired
        }

        let ended = status == .expired || status == .revoked
        // Mid-commitment the next monthly charge is owed whatever the switch says: the switch only
        // decides whether a new commitment follows the current one.
        let committedUntil = current.commitmentContinuesUntil
        let willRenew = !ended && (committedUntil != nil || info?.autoRenewPreference == true)
        var renewalProductID: String?
        var pendingChange: PlanChange?
        var renewalOffer: Offer?
        if let committedUntil, willRenew {
            // The months left are of the current product; a new commitment may be of another.
            renewalProductID = current.productID
            if let info, infoIsCurrent, info.autoRenewPreference, let target = info.commitment?.autoRenewProductID, target != current.productID {
                pendingChange = PlanChange(
                    kind: catalog.planChangeKind(from: current.productID, to: target),
                    fromProductID: current.productID, toProductID: target, effectiveDate: committedUntil)
            }
        } else if willRenew, let info {
            let target = infoIsCurrent ? (info.autoRenewProductID ?? current.productID) : current.productID
            renewalProductID = target
            if target != current.productID {
                pendingChange = PlanChange(
                    kind: catalog.planChangeKind(from: current.productID, to: target),
                    fromProductID: current.productID, toProductID: target, effectiveDate: expiresDate)
            }
            if infoIsCurrent { renewalOffer = info.offer }
        }
        let inBilling = status == .inGracePeriod || status == .inBillingRetry

        let state = SubscriptionState(
            originalTransactionID: ledger.originalTransactionID,
            status: status,
            productID: current.productID,
            subscriptionGroupID: groupID,
            transactionID: current.transactionID,
            periodStart: current.purchaseDate,
            expiresDate: expiresDate,
            willRenew: willRenew,
            autoRenewEnabled: info?.autoRenewPreference,
            renewalProductID: renewalProductID,
            pendingChange: pendingChange,
            periodType: PeriodType(offer: current.offer),
            ownership: current.ownership,
            expirationReason: status == .expired ? info?.expirationReason : nil,
            revocation: current.revocation,
            gracePeriodExpiresDate: inBilling ? info?.gracePeriodExpiresDate : nil,
            priceIncreaseStatus: ended ? nil : info?.priceIncreaseStatus,
            renewalOffer: renewalOffer,
            renewalCount: summary.renewalCount,
            firstPurchaseDate: history[0].originalPurchaseDate ?? history[0].purchaseDate,
            price: current.price,
            environment: current.environment,
            renewalInfoDate: info?.provenance.versionDate,
            history: history,
            billingPlan: current.billingPlan,
            commitment: current.commitment.map { commitment in
                CommitmentState(
                    billingPeriodNumber: commitment.billingPeriodNumber, totalBillingPeriods: commitment.totalBillingPeriods,
                    expiresDate: commitment.expiresDate, willRenew: !ended && (info?.autoRenewPreference ?? true))
            })
        return DerivedSubscription(state: state, usedIntroductoryOffer: summary.usedIntroductoryOffer, productIndex: productIndex)
    }
}

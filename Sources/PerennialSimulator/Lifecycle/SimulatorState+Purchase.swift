import Foundation
import PerennialAppStore
import PerennialCore

/// Buying: first purchases, resubscriptions and Family Sharing access, each starting a period now.
extension SimulatorState {
    mutating func purchase(_ request: PurchaseRequest, _ effects: inout Effects) throws(LifecycleError) {
        try Self.validate(request.account)
        guard request.quantity >= 1 else { throw .invalidQuantity(request.quantity) }
        let product = try sellableProduct(request.productID)
        let owned = lifecycles.indices.filter {
            lifecycles[$0].account.id == request.account.id && lifecycles[$0].ownership == .purchased
        }

        if product.type == .autoRenewable, let groupID = product.subscriptionGroupID {
            if let existing = owned.first(where: { lifecycles[$0].subscriptionGroupID == groupID }) {
                let lifecycle = lifecycles[existing]
                guard lifecycle.status == .expired || lifecycle.status == .revoked else {
                    throw .alreadySubscribed(groupID: groupID, originalTransactionID: lifecycle.originalTransactionID)
                }
                // Apple keeps one original transaction per account and group: buying again is resubscribing.
                try resubscribe(existing, productID: product.id, offer: request.offer, billingPlan: request.billingPlan, &effects)
                return
            }
        } else if product.type == .nonConsumable,
            let existing = owned.first(where: {
                lifecycles[$0].latestTransaction.productID == product.id && lifecycles[$0].status != .revoked
            })
        {
            throw .alreadyOwned(productID: product.id, originalTransactionID: lifecycles[existing].originalTransactionID)
        }

        let holder = Holder(
            account: request.account, ownership: .purchased, appAccountToken: request.appAccountToken,
            quantity: request.quantity)
        let (transaction, month) = try firstPeriod(of: product, holder: holder, offer: request.offer, plan: request.billingPlan)
        var lifecycle = SubscriptionLifecycle(
            originalTransactionID: transaction.transactionID, account: request.account,
            billingAccount: request.account, ownership: .purchased, productType: product.type,
            subscriptionGroupID: product.subscriptionGroupID, appAccountToken: request.appAccountToken,
            transactions: [transaction], status: .active, willAutoRenew: product.type == .autoRenewable,
            autoRenewProductID: product.id, expirationReason: nil, billingFailure: nil, forcedBillingFailure: nil,
            renewalCount: 0, priceIncreaseStatus: nil, declinedPriceIncrease: false,
            renewalPrice: month?.price ?? configuration.prices[product.id], recentSubscriptionStartDate: now)
        lifecycle.billed(by: month)
        lifecycles.append(lifecycle)
        effects.record(transaction, lifecycle: lifecycles.count - 1)
        if product.type != .autoRenewable {
            effects.notify(.oneTimeCharge, about: lifecycle, at: now)
        } else if let offer = request.offer, offer.type != .introductory {
            effects.notify(.offerRedeemed, .initialBuy, about: lifecycle, at: now)
        } else {
            effects.notify(.subscribed, .initialBuy, about: lifecycle, at: now)
        }
    }

    mutating func resubscribe(
        _ index: Int, productID: String?, offer: Offer?, billingPlan: BillingPlan? = nil, _ effects: inout Effects
    ) throws(LifecycleError) {
        let lifecycle = try subscription(at: index)
        guard lifecycle.ownership == .purchased else {
            throw .familySharedCannotResubscribe(originalTransactionID: lifecycle.originalTransactionID)
        }
        guard lifecycle.status == .expired || lifecycle.status == .revoked else {
            throw .subscriptionNotExpired(originalTransactionID: lifecycle.originalTransactionID, status: lifecycle.status)
        }
        let previous = lifecycle.latestTransaction.productID
        let product = try sellableProduct(productID ?? lifecycle.autoRenewProductID)
        guard product.id == previous || configuration.catalog.planChangeKind(from: previous, to: product.id) != nil else {
            throw .notAPlanChange(from: previous, to: product.id)
        }
        if offer?.type == .introductory { throw .introductoryOfferIneligible(groupID: lifecycle.subscriptionGroupID ?? "") }

        let (transaction, month) = try firstPeriod(of: product, holder: Holder(lifecycle), offer: offer, plan: billingPlan)
        lifecycles[index].transactions.append(transaction)
        lifecycles[index].status = .active
        lifecycles[index].willAutoRenew = true
        lifecycles[index].autoRenewProductID = product.id
        lifecycles[index].expirationReason = nil
        lifecycles[index].billingFailure = nil
        lifecycles[index].renewalCount = 0
        lifecycles[index].priceIncreaseStatus = nil
        lifecycles[index].declinedPriceIncrease = false
        lifecycles[index].renewalPrice = month?.price ?? configuration.prices[product.id]
        lifecycles[index].billed(by: month)
        lifecycles[index].recentSubscriptionStartDate = now
        lifecycles[index].statusBeforeRevocation = nil
        lifecycles[index].eligibleWinBackOfferIDs = []
        effects.record(transaction, lifecycle: index)
        if offer != nil {
            effects.notify(.offerRedeemed, .resubscribe, about: lifecycles[index], at: now)
        } else {
            effects.notify(.subscribed, .resubscribe, about: lifecycles[index], at: now)
        }
    }

    /// The first period of a purchase or resubscription, starting now: the first month of a
    /// commitment on the monthly plan, else the offer's period or the product's, billed up front.
    private mutating func firstPeriod(
        of product: Product, holder: Holder, offer: Offer?, plan: BillingPlan?
    ) throws(LifecycleError) -> (SimulatedTransaction, CommitmentMonth?) {
        if let month = try commitmentMonth(buying: product, plan: plan, offer: offer) {
            return (makeCommitmentTransaction(product: product, holder: holder, start: now, month: month, reason: .purchase), month)
        }
        let transaction = makeTransaction(
            product: product, holder: holder, start: now, expires: try periodEnd(of: product, offer: offer, from: now), offer: offer,
            reason: .purchase, price: price(of: product, offer: offer))
        return (transaction, nil)
    }

    /// Gives a family member their own subscription mirroring the purchaser's current period;
    /// it renews with the purchaser's payment method and costs the member nothing.
    mutating func familyShare(_ index: Int, with member: SandboxAccount, _ effects: inout Effects) throws(LifecycleError) {
        try Self.validate(member)
        let source = lifecycles[index]
        guard source.isAutoRenewable, source.ownership == .purchased, source.grantsAccess else {
            throw .notFamilyShareable(originalTransactionID: source.originalTransactionID)
        }
        if let existing = lifecycles.first(where: {
            $0.account.id == member.id && $0.subscriptionGroupID == source.subscriptionGroupID && $0.grantsAccess
        }) {
            throw .alreadySubscribed(groupID: source.subscriptionGroupID ?? "", originalTransactionID: existing.originalTransactionID)
        }
        let current = source.latestTransaction
        let holder = Holder(account: member, ownership: .familyShared, appAccountToken: nil, quantity: 1)
        let transaction = makeTransaction(
            product: try product(current.productID), holder: holder, start: now, expires: current.expiresDate,
            reason: .purchase, price: nil)
        let shared = SubscriptionLifecycle(
            originalTransactionID: transaction.transactionID, account: member, billingAccount: source.billingAccount,
            ownership: .familyShared, productType: source.productType, subscriptionGroupID: source.subscriptionGroupID,
            appAccountToken: nil, transactions: [transaction], status: .active, willAutoRenew: source.willAutoRenew,
            autoRenewProductID: source.autoRenewProductID, expirationReason: nil, billingFailure: nil,
            forcedBillingFailure: nil, renewalCount: source.renewalCount, priceIncreaseStatus: nil,
            declinedPriceIncrease: false, renewalPrice: nil, recentSubscriptionStartDate: now)
        lifecycles.append(shared)
        effects.record(transaction, lifecycle: lifecycles.count - 1)
        effects.notify(.subscribed, .initialBuy, about: shared, at: now)
    }
}

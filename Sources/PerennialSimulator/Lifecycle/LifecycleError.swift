public import Foundation

/// Why the simulated store refused an action. The state is unchanged after any of these.
public enum LifecycleError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownProduct(productID: String)
    case unknownSubscription(originalTransactionID: String)
    case unknownTransaction(transactionID: String)
    case productNotForSale(productID: String)
    /// The action needs an auto-renewable subscription.
    case notAutoRenewable(productID: String)
    /// The account already has a live subscription in this group (Apple offers a plan change).
    case alreadySubscribed(groupID: String, originalTransactionID: String)
    /// The account already owns this non-consumable.
    case alreadyOwned(productID: String, originalTransactionID: String)
    /// The subscription must be active (or in grace) for this action; `status` is where it stands.
    case subscriptionNotActive(originalTransactionID: String, status: SimulatedSubscriptionStatus)
    /// Only an expired subscription can be resubscribed.
    case subscriptionNotExpired(originalTransactionID: String, status: SimulatedSubscriptionStatus)
    /// The target is not another product of the same subscription group.
    case notAPlanChange(from: String, to: String)
    case noPendingPlanChange(originalTransactionID: String)
    case autoRenewUnchanged(originalTransactionID: String, enabled: Bool)
    case notInBillingFailure(originalTransactionID: String)
    case alreadyRevoked(transactionID: String)
    case notRefunded(transactionID: String)
    /// Apple asks about refunds of consumables and auto-renewable subscriptions only.
    case notRefundRequestable(transactionID: String)
    case noOpenRefundRequest(transactionID: String)
    case proratedRefundWithoutPeriod(transactionID: String)
    case notFamilyShareable(originalTransactionID: String)
    case notFamilyShared(originalTransactionID: String)
    /// A family member cannot buy through the purchaser's subscription; they purchase their own.
    case familySharedCannotResubscribe(originalTransactionID: String)
    case noPendingPriceIncrease(originalTransactionID: String)
    /// Family Sharing access cannot be bound to an app account by the developer.
    case familySharedAccountToken(originalTransactionID: String)
    case invalidExtensionDays(Int)
    case invalidQuantity(Int)
    case invalidFailureProbability(Double)
    case invalidOfferPeriod(String)
    /// The account subscribed to this group before, so the introductory offer is spent.
    case introductoryOfferIneligible(groupID: String)
    case timeMovesBackwards(now: Date, requested: Date)
    /// The product is not sold as a monthly plan with a commitment (a one-year product with a
    /// monthly price in ``SimulatorConfiguration/monthlyCommitmentPrices``).
    case noMonthlyCommitmentPlan(productID: String)
    /// The simulator sells monthly plans with a commitment without offers.
    case offerOnCommitmentPlan(productID: String)
    /// Plan changes during a monthly plan with a commitment are not modelled.
    case planChangeOnCommitment(originalTransactionID: String)

    public var description: String {
        switch self {
        case .unknownProduct(let productID): "product \"\(productID)\" is not in the catalog"
        case .unknownSubscription(let id): "no subscription or purchase has original transaction id \(id)"
        case .unknownTransaction(let id): "no transaction has id \(id)"
        case .productNotForSale(let productID): "product \"\(productID)\" was removed from sale"
        case .notAutoRenewable(let productID): "product \"\(productID)\" is not an auto-renewable subscription"
        case .alreadySubscribed(let groupID, let id):
            "the account already subscribes to group \"\(groupID)\" (original transaction \(id)); change the plan instead"
        case .alreadyOwned(let productID, let id): "the account already owns \"\(productID)\" (original transaction \(id))"
        case .subscriptionNotActive(let id, let status): "subscription \(id) is \(status), not active"
        case .subscriptionNotExpired(let id, let status): "subscription \(id) is \(status); only an expired one can be resubscribed"
        case .notAPlanChange(let from, let to): "\"\(to)\" is not another product of the group of \"\(from)\""
        case .noPendingPlanChange(let id): "subscription \(id) has no pending plan change"
        case .autoRenewUnchanged(let id, let enabled): "auto-renew of subscription \(id) is already \(enabled ? "on" : "off")"
        case .notInBillingFailure(let id): "subscription \(id) has no billing failure to recover from"
        case .alreadyRevoked(let id): "transaction \(id) is already revoked"
        case .notRefunded(let id): "transaction \(id) has no refund to reverse"
        case .notRefundRequestable(let id): "transaction \(id) is neither a consumable nor an auto-renewable subscription"
        case .noOpenRefundRequest(let id): "transaction \(id) has no refund request awaiting Apple's decision"
        case .proratedRefundWithoutPeriod(let id): "transaction \(id) has no period, so it cannot be refunded pro rata"
        case .notFamilyShareable(let id): "subscription \(id) is not an active, purchased auto-renewable and cannot be shared"
        case .notFamilyShared(let id): "subscription \(id) is not held through Family Sharing, or is already revoked"
        case .familySharedCannotResubscribe(let id):
            "subscription \(id) is held through Family Sharing; the member must purchase a subscription of their own"
        case .noPendingPriceIncrease(let id): "subscription \(id) has no price increase awaiting consent"
        case .familySharedAccountToken(let id):
            "subscription \(id) is held through Family Sharing; its app account token cannot be set"
        case .invalidExtensionDays(let days): "a renewal date extension is 1 to 90 days, not \(days)"
        case .invalidQuantity(let quantity): "quantity must be at least 1, not \(quantity)"
        case .invalidFailureProbability(let probability): "a failure probability is between 0 and 1, not \(probability)"
        case .invalidOfferPeriod(let text): "offer period \"\(text)\" is not an ISO 8601 duration like P1W or P1M"
        case .introductoryOfferIneligible(let groupID): "the account already used its introductory offer in group \"\(groupID)\""
        case .timeMovesBackwards(let now, let requested): "cannot advance from \(now) back to \(requested)"
        case .noMonthlyCommitmentPlan(let productID): "product \"\(productID)\" is not sold as a monthly plan with a 12-month commitment"
        case .offerOnCommitmentPlan(let productID): "the monthly plan of \"\(productID)\" is sold without offers"
        case .planChangeOnCommitment(let id): "subscription \(id) is a monthly plan with a commitment, whose plan changes the simulator does not model"
        }
    }
}

public import Foundation
public import PerennialCore
public import PerennialAppStore

/// One step of a scenario file: an object with exactly one key naming what happens (see
/// docs/scenarios.md). Subscriptions are named by the aliases earlier steps gave with `"as"`,
/// because the store generates their ids.
///
/// The same JSON is what `POST /simulator/v1/actions` takes, decoded with ``decode(json:)`` and
/// carried out with ``ScenarioContext``.
public enum ScenarioStep: Hashable, Sendable {
    /// `{"purchase": {"product", "account", "offer"?, "appAccountToken"?, "quantity"?, "billingPlan"?, "as"?}}`
    case purchase(ScenarioPurchase)
    /// `{"advance": {"periods": n, "of": alias}}`, `{"days": n, "scaled"?}`, `{"seconds": s}` or `{"to": ISO 8601}`.
    case advance(ScenarioAdvance)
    /// `{"setAutoRenew": {"of", "enabled"}}`
    case setAutoRenew(subscription: String, enabled: Bool)
    /// `{"changeProduct": {"of", "product"}}`: upgrade, downgrade or crossgrade as the catalog says.
    case changeProduct(subscription: String, productID: String)
    /// `{"cancelPendingChange": {"of"}}`
    case cancelPendingChange(subscription: String)
    /// `{"failBilling": {"of", "grace"?}}`: renewals fail from now on until `recoverBilling`.
    case failBilling(subscription: String, grace: Bool)
    /// `{"recoverBilling": {"of"}}`
    case recoverBilling(subscription: String)
    /// `{"refund": {"of", "transaction"?, "amount"?: "full"|"prorated", "reason"?: "developerIssue"|"other"}}`
    case refund(ScenarioTransactionReference, amount: RefundAmount, reason: RevocationReason)
    /// `{"reverseRefund": {"of", "transaction"?}}`
    case reverseRefund(ScenarioTransactionReference)
    /// `{"declineRefund": {"of", "transaction"?}}`
    case declineRefund(ScenarioTransactionReference)
    /// `{"requestRefund": {"of", "transaction"?, "reason"?}}`: the customer asks for a refund and
    /// Apple sends `CONSUMPTION_REQUEST` (`reason` is Apple's `consumptionRequestReason`, `OTHER` by default).
    case requestRefund(ScenarioTransactionReference, reason: ConsumptionRequestReason)
    /// `{"decideRefundRequest": {"of", "transaction"?}}`: Apple decides the open request, following
    /// the developer's refund preference.
    case decideRefundRequest(ScenarioTransactionReference)
    /// `{"familyShare": {"of", "member", "as"?}}`: `member` is a declared account.
    case familyShare(subscription: String, member: String, alias: String?)
    /// `{"revokeFamily": {"of"}}`, `of` naming the member's family-shared subscription.
    case revokeFamily(subscription: String)
    /// `{"priceIncrease": {"product", "price": {"milliUnits", "currency"}, "requiresConsent"?}}`
    case priceIncrease(productID: String, price: Money, requiresConsent: Bool)
    /// `{"consentToPriceIncrease": {"of", "accept"}}`
    case consentToPriceIncrease(subscription: String, accept: Bool)
    /// `{"extendRenewalDate": {"of", "days", "reason"?}}`
    case extendRenewalDate(subscription: String, days: Int, reason: RenewalExtensionReason)
    /// `{"removeFromSale": {"product"}}`
    case removeFromSale(productID: String)
    /// `{"resubscribe": {"of", "product"?, "offer"?}}`
    case resubscribe(subscription: String, productID: String?, offer: Offer?)
    /// `{"setAppAccountToken": {"of", "appAccountToken"}}`, what Set App Account Token does.
    case setAppAccountToken(subscription: String, appAccountToken: UUID)
    /// `{"faults": DeliveryFaults}`: how notification delivery misbehaves from now on.
    case faults(DeliveryFaults)
    /// `{"verifyReceiptFailure": {"status": n, "retryable"?} | {"http503": true} | null}`
    case verifyReceiptFailure(InjectedVerifyReceiptFailure?)
    /// `{"serverAPIFailure": {"status": n, "errorCode": n, "errorMessage"?} | null}`
    case serverAPIFailure(InjectedServerAPIFailure?)
    /// `{"expect": {"notifications"?: [...], "status"?: {alias: status}}}`
    case expect(ScenarioExpectation)

    /// The step's key in the file, which is also how the timeline names it.
    public var key: String {
        switch self {
        case .purchase: "purchase"
        case .advance: "advance"
        case .setAutoRenew: "setAutoRenew"
        case .changeProduct: "changeProduct"
        case .cancelPendingChange: "cancelPendingChange"
        case .failBilling: "failBilling"
        case .recoverBilling: "recoverBilling"
        case .refund: "refund"
        case .reverseRefund: "reverseRefund"
        case .declineRefund: "declineRefund"
        case .requestRefund: "requestRefund"
        case .decideRefundRequest: "decideRefundRequest"
        case .familyShare: "familyShare"
        case .revokeFamily: "revokeFamily"
        case .priceIncrease: "priceIncrease"
        case .consentToPriceIncrease: "consentToPriceIncrease"
        case .extendRenewalDate: "extendRenewalDate"
        case .removeFromSale: "removeFromSale"
        case .resubscribe: "resubscribe"
        case .setAppAccountToken: "setAppAccountToken"
        case .faults: "faults"
        case .verifyReceiptFailure: "verifyReceiptFailure"
        case .serverAPIFailure: "serverAPIFailure"
        case .expect: "expect"
        }
    }
}

/// A purchase step: which account buys what, and the alias the new subscription gets.
public struct ScenarioPurchase: Hashable, Sendable {
    public var productID: String
    /// A declared account's id.
    public var account: String
    public var offer: Offer?
    public var appAccountToken: UUID?
    public var quantity: Int
    /// The name later steps use for the subscription (or purchase) this creates.
    public var alias: String?
    /// `monthly` buys the product's monthly plan with a 12-month commitment; nil bills up front.
    public var billingPlan: BillingPlan?

    /// A purchase of one unit, billed up front unless told.
    public init(
        productID: String, account: String, offer: Offer? = nil, appAccountToken: UUID? = nil, quantity: Int = 1, alias: String? = nil,
        billingPlan: BillingPlan? = nil
    ) {
        self.productID = productID
        self.account = account
        self.offer = offer
        self.appAccountToken = appAccountToken
        self.quantity = quantity
        self.alias = alias
        self.billingPlan = billingPlan
    }
}

/// How far an `advance` step moves the clock.
public enum ScenarioAdvance: Hashable, Sendable {
    /// To the subscription's `count`-th next scheduled date: its current period end (or, while
    /// billing fails, the end of the grace period or of billing retry), then one period of its
    /// renewal product after another.
    case periods(Int, of: String)
    /// Calendar days of 86 400 s; with `scaled`, days as the store counts grace periods and
    /// extensions (a 30-day month lasts 300 s at the default sandbox rate).
    case days(Int, scaled: Bool)
    case seconds(TimeInterval)
    /// To an absolute instant.
    case to(Date)
}

/// Which transaction of a subscription a refund step is about.
public struct ScenarioTransactionReference: Hashable, Sendable {
    /// Which of the subscription's transactions.
    public enum Selector: Hashable, Sendable {
        /// The current period's transaction (the default).
        case latest
        /// The first transaction.
        case original
        /// The transaction at this 0-based position, oldest first.
        case index(Int)
    }

    /// The subscription's alias.
    public var subscription: String
    public var selector: Selector

    /// A reference; the latest transaction unless told otherwise.
    public init(subscription: String, selector: Selector = .latest) {
        self.subscription = subscription
        self.selector = selector
    }
}

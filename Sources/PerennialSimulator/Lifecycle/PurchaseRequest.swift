public import Foundation
public import PerennialCore

/// What a device sends when it buys: the product, the buying account and the options StoreKit's
/// `purchase(options:)` carries.
public struct PurchaseRequest: Hashable, Sendable {
    public var productID: String
    public var account: SandboxAccount
    /// The app's user id for this purchase, echoed on every later transaction of the subscription.
    public var appAccountToken: UUID?
    /// An introductory, promotional, offer-code or win-back offer applied to the first period.
    /// Its `period` (ISO 8601) sets the first period's length, else the product's duration is used.
    public var offer: Offer?
    public var quantity: Int
    /// StoreKit's billing plan option: `.monthly` buys the product's monthly plan with a 12-month
    /// commitment (``SimulatorConfiguration/monthlyCommitmentPrices``); nil bills up front.
    public var billingPlan: BillingPlan?

    /// A purchase of one unit, without an offer unless given, billed up front unless told.
    public init(
        productID: String, account: SandboxAccount, appAccountToken: UUID? = nil, offer: Offer? = nil, quantity: Int = 1,
        billingPlan: BillingPlan? = nil
    ) {
        self.productID = productID
        self.account = account
        self.appAccountToken = appAccountToken
        self.offer = offer
        self.quantity = quantity
        self.billingPlan = billingPlan
    }
}

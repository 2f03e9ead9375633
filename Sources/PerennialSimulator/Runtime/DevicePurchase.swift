public import Foundation
public import PerennialCore

/// What a device asks the store to buy: StoreKit's `Product.purchase(options:)` for one account.
public struct DevicePurchase: Equatable, Sendable {
    /// The sandbox account that buys (registered with ``AppStoreSimulator/createAccount(_:)``).
    public var accountID: String
    /// The product bought.
    public var productID: String
    /// The app's id for its user, echoed on every transaction of the purchase.
    public var appAccountToken: UUID?
    /// The offer redeemed with the purchase, if any.
    public var offer: DeviceOffer?
    /// Units bought (consumables); 1 otherwise.
    public var quantity: Int
    /// Ask to Buy: the purchase waits for a parent's approval instead of completing.
    public var askToBuy: Bool
    /// StoreKit's billing plan option: `.monthly` buys the monthly plan with a 12-month commitment.
    public var billingPlan: BillingPlan?

    /// A purchase of one unit without an offer unless given.
    public init(
        accountID: String, productID: String, appAccountToken: UUID? = nil, offer: DeviceOffer? = nil, quantity: Int = 1,
        askToBuy: Bool = false, billingPlan: BillingPlan? = nil
    ) {
        self.accountID = accountID
        self.productID = productID
        self.appAccountToken = appAccountToken
        self.offer = offer
        self.quantity = quantity
        self.askToBuy = askToBuy
        self.billingPlan = billingPlan
    }
}

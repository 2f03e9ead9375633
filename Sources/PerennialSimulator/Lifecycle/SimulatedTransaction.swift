public import Foundation
public import PerennialCore

/// One transaction as the simulated App Store records it: the content of a
/// `JWSTransactionDecodedPayload` (field names follow Apple's keys, in Swift spelling), minus the
/// signature, which the signing layer adds.
public struct SimulatedTransaction: Hashable, Sendable {
    public let transactionID: String
    public let originalTransactionID: String
    /// Identifies the subscription period across devices; nil for non-subscriptions.
    public let webOrderLineItemID: String?
    public let bundleID: String
    public let productID: String
    /// Apple's `type`.
    public let productType: ProductType
    public let subscriptionGroupIdentifier: String?
    public let purchaseDate: Date
    public let originalPurchaseDate: Date
    /// End of the period (subscriptions); moved later by a renewal date extension.
    public internal(set) var expiresDate: Date?
    public let quantity: Int
    /// Replaced on every transaction of the subscription by Set App Account Token.
    public internal(set) var appAccountToken: UUID?
    /// Apple's `inAppOwnershipType`.
    public let inAppOwnershipType: Ownership
    /// The offer, if any: `offerType`, `offerIdentifier`, `offerDiscountType` (the payment mode)
    /// and `offerPeriod`.
    public let offer: Offer?
    public internal(set) var revocationDate: Date?
    public internal(set) var revocationReason: RevocationReason?
    public internal(set) var revocationType: RevocationType?
    /// Refunded share in milli-percent (100 000 = all), for prorated refunds.
    public internal(set) var revocationPercentage: Int?
    /// True once an immediate upgrade (or same-duration crossgrade) replaced this period.
    public internal(set) var isUpgraded: Bool
    /// Not on Apple's wire: the prorated amount Apple refunds for the unused part of a period
    /// replaced by an upgrade, kept so scenarios can assert it.
    public internal(set) var upgradeRefund: Money?
    public let transactionReason: TransactionReason
    /// Price in milli-units with its `currency`; nil for Family Sharing access, which costs the
    /// member nothing.
    public let price: Money?
    public let storefront: String
    public let environment: AppStoreEnvironment
    /// The holder's app download (`appTransactionId`): one per account and app, so every
    /// transaction of a customer carries the same value.
    public let appTransactionID: String
    /// Apple's `billingPlanType`, sent for a monthly plan with a commitment.
    public internal(set) var billingPlanType: BillingPlan? = nil
    /// Apple's `commitmentInfo`: the month of the commitment this transaction pays.
    public internal(set) var commitmentInfo: CommitmentPeriod? = nil
}

public import Foundation
public import PerennialCore

/// What the simulated App Store says about a subscription's next renewal: the content of a
/// `JWSRenewalInfoDecodedPayload` (field names follow Apple's keys), minus the signature.
public struct SimulatedRenewalInfo: Hashable, Sendable {
    public let originalTransactionID: String
    public let productID: String
    public let autoRenewProductID: String
    /// Apple's `autoRenewStatus` (`1` on).
    public let autoRenewStatus: Bool
    /// Apple's `expirationIntent`, once the subscription expired.
    public let expirationIntent: ExpirationReason?
    public let isInBillingRetryPeriod: Bool
    public let gracePeriodExpiresDate: Date?
    public let priceIncreaseStatus: PriceIncreaseStatus?
    public let renewalDate: Date?
    /// The price of the next renewal, in milli-units with its `currency`.
    public let renewalPrice: Money?
    public let recentSubscriptionStartDate: Date
    public let appAccountToken: UUID?
    public let environment: AppStoreEnvironment
    /// The holder's app download (`appTransactionId`), the same on every transaction of the account.
    public let appTransactionID: String
    /// The offer that applies to the next renewal (`offerType`, `offerIdentifier`,
    /// `offerDiscountType`, `offerPeriod`), if any.
    public let offer: Offer?
    /// `eligibleWinBackOfferIds`: sent for an expired subscription whose product has win-back offers.
    public let eligibleWinBackOfferIDs: [String]?
    /// `renewalBillingPlanType`, for a monthly plan with a commitment.
    public internal(set) var renewalBillingPlanType: BillingPlan? = nil
    /// `commitmentInfo`: whether, when, into what and at what price the commitment renews.
    public internal(set) var commitmentInfo: CommitmentRenewal? = nil
}

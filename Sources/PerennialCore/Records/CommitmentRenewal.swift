public import Foundation

/// What renewal info says about the renewal of a commitment itself, as opposed to its next monthly
/// charge (Apple's `RenewalCommitmentInfo`,
/// https://developer.apple.com/documentation/appstoreserverapi/renewalcommitmentinfo).
///
/// The customer's auto-renew switch acts here: turned off, the committed monthly charges still
/// come, and the subscription does not start a new commitment when this one ends.
public struct CommitmentRenewal: Hashable, Sendable, Codable {
    /// Whether a new commitment starts when this one ends (`commitmentAutoRenewStatus`).
    public var willAutoRenew: Bool?
    /// The product the next commitment is for (`commitmentAutoRenewProductId`).
    public var autoRenewProductID: String?
    /// How the next commitment is billed (`commitmentRenewalBillingPlanType`).
    public var billingPlan: BillingPlan?
    /// When the next commitment starts (`commitmentRenewalDate`).
    public var renewalDate: Date?
    /// The price of a billing period of the next commitment (`commitmentRenewalPrice`: Apple's
    /// server library shows 9.99 for a monthly plan whose commitment costs 119.88).
    public var renewalPrice: Money?

    public init(
        willAutoRenew: Bool? = nil, autoRenewProductID: String? = nil, billingPlan: BillingPlan? = nil, renewalDate: Date? = nil,
        renewalPrice: Money? = nil
    ) {
        self.willAutoRenew = willAutoRenew
        self.autoRenewProductID = autoRenewProductID
        self.billingPlan = billingPlan
        self.renewalDate = renewalDate
        self.renewalPrice = renewalPrice
    }
}

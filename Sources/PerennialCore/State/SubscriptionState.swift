public import Foundation

/// One auto-renewable subscription (one original transaction id) as it stands at the view's instant.
///
/// Derived only from merged records, the catalog and the given instant, so that every part of
/// Perennial that asks gets the same answer.
public struct SubscriptionState: Hashable, Sendable, Codable {
    /// The subscription's key, stable across renewals and plan changes.
    public var originalTransactionID: String
    public var status: SubscriptionStatus
    /// The product of the current period (after an upgrade, the new product at once; during a
    /// scheduled downgrade, still the old one).
    public var productID: String
    /// From the catalog, else from the transaction (a product missing from the catalog).
    public var subscriptionGroupID: String?
    /// The transaction that pays for the current (latest valid) period.
    public var transactionID: String
    public var periodStart: Date
    /// End of the current period as Apple states it (`expiresDate`).
    public var expiresDate: Date
    /// Whether the subscription will renew: it has not ended, and auto-renew is on or the current
    /// period is not the last of a commitment.
    public var willRenew: Bool
    /// The customer's auto-renew switch as last reported (on a commitment, the commitment's), nil
    /// without renewal info.
    public var autoRenewEnabled: Bool?
    /// The product the next renewal will be for, when the subscription will renew.
    public var renewalProductID: String?
    /// A change to another product that waits for the next renewal (a downgrade, or a crossgrade
    /// to a different duration).
    public var pendingChange: PlanChange?
    public var periodType: PeriodType
    public var ownership: Ownership
    /// Why the subscription expired, when it has.
    public var expirationReason: ExpirationReason?
    /// The refund or revocation of the current period.
    public var revocation: Revocation?
    /// End of the billing grace period, while in one.
    public var gracePeriodExpiresDate: Date?
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// The offer the next renewal will use (a promotional offer or offer code redeemed mid-period).
    public var renewalOffer: Offer?
    /// Number of automatic renewals in the subscription's history.
    public var renewalCount: Int
    public var firstPurchaseDate: Date
    /// The price of the current period.
    public var price: Money?
    public var environment: AppStoreEnvironment
    /// When the renewal info behind the renewal fields was signed (or answered, for legacy evidence).
    public var renewalInfoDate: Date?
    /// The subscription's transactions, sorted by purchase date; events are derived from their changes.
    public var history: [Transaction]
    /// How the current period is billed, when Apple says.
    public var billingPlan: BillingPlan? = nil
    /// The commitment of the current period, for a monthly plan with a commitment.
    public var commitment: CommitmentState? = nil

    /// Whether the subscriber may use what the subscription grants.
    public var grantsAccess: Bool { status.grantsAccess }

    /// Until when access lasts: the period end (or earlier revocation) when active, the grace end
    /// in a grace period, nil without access.
    public var accessExpiresDate: Date? {
        switch status {
        case .active:
            if let revocation, revocation.date < expiresDate { return revocation.date }
            return expiresDate
        case .inGracePeriod: return gracePeriodExpiresDate
        case .inBillingRetry, .expired, .revoked: return nil
        }
    }
}

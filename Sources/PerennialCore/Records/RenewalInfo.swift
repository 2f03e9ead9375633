public import Foundation

/// Why a subscription expired (legacy `expiration_intent`, V2 `expirationIntent`).
public struct ExpirationReason: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer turned auto-renew off (`1`).
    public static let voluntary: Self = "voluntary"
    /// The renewal charge failed (`2`).
    public static let billingError: Self = "billingError"
    /// The customer did not consent to a price increase (`3`).
    public static let declinedPriceIncrease: Self = "declinedPriceIncrease"
    /// The product was not for sale at renewal time (`4`).
    public static let productUnavailable: Self = "productUnavailable"
    /// Any other reason (`5`).
    public static let other: Self = "other"
}

/// The customer's answer to a price increase that needs consent.
public struct PriceIncreaseStatus: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Notified, not yet consented (`0`).
    public static let pending: Self = "pending"
    /// Consented, or an increase that needs no consent (`1`).
    public static let accepted: Self = "accepted"
}

/// What Apple says about the next renewal of one subscription (legacy `pending_renewal_info`,
/// V2 `JWSRenewalInfoDecodedPayload`). One per original transaction; the newest
/// ``Provenance/versionDate`` wins.
public struct RenewalInfo: Hashable, Sendable, Codable {
    public var originalTransactionID: String
    /// The product of the current period.
    public var productID: String
    /// The product the subscription renews into; differs from `productID` after a downgrade or
    /// crossgrade that waits for the next renewal.
    public var autoRenewProductID: String?
    public var willAutoRenew: Bool
    /// Present once the subscription expired (or will not renew, in V2).
    public var expirationReason: ExpirationReason?
    /// Apple is still trying to charge the renewal.
    public var isInBillingRetry: Bool
    /// End of the billing grace period, while in one.
    public var gracePeriodExpiresDate: Date?
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// The offer the next renewal will use.
    public var offer: Offer?
    public var renewalPrice: Money?
    /// When the next renewal is due (V2 `renewalDate`).
    public var renewalDate: Date?
    /// Start of the latest run of uninterrupted periods (V2 `recentSubscriptionStartDate`).
    public var recentSubscriptionStartDate: Date?
    public var eligibleWinBackOfferIDs: [String]
    public var appAccountToken: UUID?
    /// How the next period is billed (V2 `renewalBillingPlanType`).
    public var billingPlan: BillingPlan?
    /// The renewal of the current commitment, for a monthly plan with a commitment.
    public var commitment: CommitmentRenewal?
    public var environment: AppStoreEnvironment
    public var provenance: Provenance

    public init(
        originalTransactionID: String,
        productID: String,
        autoRenewProductID: String? = nil,
        willAutoRenew: Bool,
        expirationReason: ExpirationReason? = nil,
        isInBillingRetry: Bool = false,
        gracePeriodExpiresDate: Date? = nil,
        priceIncreaseStatus: PriceIncreaseStatus? = nil,
        offer: Offer? = nil,
        renewalPrice: Money? = nil,
        renewalDate: Date? = nil,
        recentSubscriptionStartDate: Date? = nil,
        eligibleWinBackOfferIDs: [String] = [],
        appAccountToken: UUID? = nil,
        billingPlan: BillingPlan? = nil,
        commitment: CommitmentRenewal? = nil,
        environment: AppStoreEnvironment,
        provenance: Provenance
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.autoRenewProductID = autoRenewProductID
        self.willAutoRenew = willAutoRenew
        self.expirationReason = expirationReason
        self.isInBillingRetry = isInBillingRetry
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.priceIncreaseStatus = priceIncreaseStatus
        self.offer = offer
        self.renewalPrice = renewalPrice
        self.renewalDate = renewalDate
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.eligibleWinBackOfferIDs = eligibleWinBackOfferIDs
        self.appAccountToken = appAccountToken
        self.billingPlan = billingPlan
        self.commitment = commitment
        self.environment = environment
        self.provenance = provenance
    }
}

extension RenewalInfo {
    /// The customer's auto-renew switch. On a commitment it is the commitment's own status (the
    /// monthly charges of the commitment come whatever the switch), else Apple's `autoRenewStatus`.
    public var autoRenewPreference: Bool { commitment?.willAutoRenew ?? willAutoRenew }
}

public import Foundation
public import PerennialCore

/// One subscription (or one purchase of another product type) as the simulated App Store keeps
/// it, keyed by its original transaction id.
///
/// A plain value: ``SimulatorState`` changes it in response to actions and time, and tests read
/// it directly. Nothing here performs I/O or reads a clock.
public struct SubscriptionLifecycle: Hashable, Sendable {
    public let originalTransactionID: String
    /// The account holding it (the family member for Family Sharing access).
    public let account: SandboxAccount
    /// The account whose payment method is charged at renewal (the purchaser for Family Sharing).
    public let billingAccount: SandboxAccount
    public let ownership: Ownership
    public let productType: ProductType
    public let subscriptionGroupID: String?
    /// The app's account id for the subscription; every later transaction and renewal info carries
    /// it. Set at purchase, or afterwards by the developer through Set App Account Token.
    public internal(set) var appAccountToken: UUID?
    /// Every transaction, oldest first; the last one is the current period.
    public internal(set) var transactions: [SimulatedTransaction]
    public internal(set) var status: SimulatedSubscriptionStatus
    public internal(set) var willAutoRenew: Bool
    /// The product the next renewal charges; differs from the current one while a downgrade or
    /// different-duration crossgrade waits for the renewal.
    public internal(set) var autoRenewProductID: String
    public internal(set) var expirationReason: ExpirationReason?
    /// Set while a renewal charge has failed and Apple is retrying.
    public internal(set) var billingFailure: BillingFailure?
    /// Set by ``LifecycleAction/failBilling(originalTransactionID:grace:)``: renewals fail, with
    /// or without grace, until billing recovers.
    public internal(set) var forcedBillingFailure: ForcedBillingFailure?
    /// Renewals since the purchase or the last resubscription, against the sandbox's limit.
    public internal(set) var renewalCount: Int
    public internal(set) var priceIncreaseStatus: PriceIncreaseStatus?
    /// The customer refused a price increase that needs consent; the subscription expires at
    /// the end of the period.
    public internal(set) var declinedPriceIncrease: Bool
    /// The price of the next renewal.
    public internal(set) var renewalPrice: Money?
    public internal(set) var recentSubscriptionStartDate: Date
    /// Renewal date extensions granted so far, oldest first.
    public internal(set) var renewalExtensions: [RenewalExtension] = []
    /// The win-back offers the holder may redeem, set when the subscription expires (from
    /// ``SimulatorConfiguration/winBackOfferIDs``) and cleared when it is bought again.
    public internal(set) var eligibleWinBackOfferIDs: [String] = []
    /// Where the subscription stood before a refund revoked it, restored by a refund reversal.
    var statusBeforeRevocation: SimulatedSubscriptionStatus? = nil
    /// `.monthly` for a monthly plan with a commitment: every renewal is a monthly charge.
    public internal(set) var billingPlan: BillingPlan? = nil
    /// When the current commitment began; its months end at whole months from here.
    public internal(set) var commitmentStart: Date? = nil

    /// Whether renewals fail on purpose, and whether the failure grants a grace period.
    public struct ForcedBillingFailure: Hashable, Sendable {
        public let grace: Bool
    }

    /// The current period's transaction.
    public var latestTransaction: SimulatedTransaction {
        // A lifecycle is created with its first transaction and never loses one.
        transactions[transactions.count - 1]
    }

    /// True for subscriptions that renew; other purchases have a single transaction and no
    /// renewal info.
    public var isAutoRenewable: Bool { productType == .autoRenewable }

    /// Notes how the period just started is billed: a month of a commitment, or up front (nil).
    mutating func billed(by month: SimulatorState.CommitmentMonth?) {
        billingPlan = month.map { _ in .monthly }
        commitmentStart = month?.commitmentStart
    }

    /// Whether the period ending at `date` is followed by another month of the current commitment,
    /// owed whatever the auto-renew switch says.
    func isCommitted(after date: Date) -> Bool {
        latestTransaction.commitmentInfo.map { $0.expiresDate > date } ?? false
    }

    /// The renewal info Apple would sign now; nil for purchases that do not renew.
    ///
    /// On a commitment, `autoRenewStatus` speaks of the next monthly charge (on while months of the
    /// commitment remain) and `commitmentInfo.commitmentAutoRenewStatus` of the customer's switch,
    /// which decides whether a new commitment follows
    /// (https://developer.apple.com/documentation/appstoreserverapi/renewalcommitmentinfo).
    public var renewalInfo: SimulatedRenewalInfo? {
        guard isAutoRenewable else { return nil }
        let latest = latestTransaction
        let renewing = status == .active || status == .gracePeriod || status == .billingRetry
        let committed = renewing && latest.expiresDate.map(isCommitted(after:)) == true
        var info = SimulatedRenewalInfo(
            originalTransactionID: originalTransactionID,
            productID: latest.productID,
            autoRenewProductID: autoRenewProductID,
            autoRenewStatus: willAutoRenew || committed,
            expirationIntent: expirationReason,
            isInBillingRetryPeriod: billingFailure != nil,
            gracePeriodExpiresDate: billingFailure?.gracePeriodExpiresDate,
            priceIncreaseStatus: priceIncreaseStatus,
            renewalDate: renewing ? latest.expiresDate : nil,
            renewalPrice: renewalPrice,
            recentSubscriptionStartDate: recentSubscriptionStartDate,
            appAccountToken: appAccountToken,
            environment: latest.environment,
            appTransactionID: latest.appTransactionID,
            offer: renewing && willAutoRenew ? Self.offerContinuing(latest.offer) : nil,
            eligibleWinBackOfferIDs: status == .expired && !eligibleWinBackOfferIDs.isEmpty ? eligibleWinBackOfferIDs : nil
        )
        if let billingPlan, let commitment = latest.commitmentInfo {
            info.renewalBillingPlanType = billingPlan
            info.commitmentInfo = CommitmentRenewal(
                willAutoRenew: willAutoRenew, autoRenewProductID: autoRenewProductID, billingPlan: billingPlan,
                renewalDate: renewing ? commitment.expiresDate : nil,
                renewalPrice: renewing ? renewalPrice : nil)
        }
        return info
    }

    /// The offer of the current period that still applies to the next renewal: a pay-as-you-go
    /// discount is billed period after period, while a free trial or a pay-up-front offer ends
    /// with its one period and the renewal is at the regular price.
    public static func offerContinuing(_ offer: Offer?) -> Offer? {
        guard let offer, offer.paymentMode == .payAsYouGo else { return nil }
        return offer
    }

    /// Whether the holder may use the product now: active or in a grace period.
    var grantsAccess: Bool { status == .active || status == .gracePeriod }
}

public import PerennialCore

/// The store-wide settings of a simulated App Store: what it sells and at what price, how fast
/// time runs, and the sandbox's limits.
public struct SimulatorConfiguration: Hashable, Sendable {
    public var catalog: Catalog
    /// Price of each product by id; a product without one is sold without a `price` field.
    public var prices: [String: Money]
    public var timeScale: SandboxTimeScale
    /// Renewals after the initial purchase before the sandbox stops renewing (Apple: 12).
    public var renewalLimit: Int
    /// Billing grace period in (unscaled) days, applied to failures drawn from an account's
    /// behaviour; nil when the app has no grace period. Apple offers 3, 16 or 28 days.
    public var billingGracePeriodDays: Int?
    /// Billing grace period in days used by ``LifecycleAction/failBilling(originalTransactionID:grace:)``
    /// with `grace: true` when ``billingGracePeriodDays`` is nil.
    public static let defaultGracePeriodDays = 16
    /// How long Apple keeps retrying a failed renewal charge, in (unscaled) days (Apple: 60).
    public var billingRetryDays: Int
    public var environment: AppStoreEnvironment
    /// Seeds the generator that decides probabilistic renewal failures.
    public var seed: UInt64
    /// First transaction id handed out; ids count up from here, so runs are reproducible.
    public var firstTransactionID: Int64
    /// First web order line item id handed out.
    public var firstWebOrderLineItemID: Int64
    /// The win-back offer ids configured for each auto-renewable product, best first; a lapsed
    /// subscriber's renewal info lists them as `eligibleWinBackOfferIds`.
    public var winBackOfferIDs: [String: [String]]
    /// The monthly price of each one-year product that is also sold as a monthly plan with a
    /// 12-month commitment (App Store Server API 1.21); a purchase with
    /// ``PurchaseRequest/billingPlan`` `.monthly` buys that plan.
    public var monthlyCommitmentPrices: [String: Money]

    /// A sandbox-like store: 5-minute months, 12 renewals, no grace period, 60 days of retry.
    public init(
        catalog: Catalog,
        prices: [String: Money] = [:],
        timeScale: SandboxTimeScale = .sandbox(.everyFiveMinutes),
        renewalLimit: Int = 12,
        billingGracePeriodDays: Int? = nil,
        billingRetryDays: Int = 60,
        environment: AppStoreEnvironment = .sandbox,
        seed: UInt64 = 0,
        firstTransactionID: Int64 = 2_000_000_000_000_001,
        firstWebOrderLineItemID: Int64 = 2_000_000_050_000_001,
        winBackOfferIDs: [String: [String]] = [:],
        monthlyCommitmentPrices: [String: Money] = [:]
    ) {
        self.catalog = catalog
        self.prices = prices
        self.timeScale = timeScale
        self.renewalLimit = renewalLimit
        self.billingGracePeriodDays = billingGracePeriodDays
        self.billingRetryDays = billingRetryDays
        self.environment = environment
        self.seed = seed
        self.firstTransactionID = firstTransactionID
        self.firstWebOrderLineItemID = firstWebOrderLineItemID
        self.winBackOfferIDs = winBackOfferIDs
        self.monthlyCommitmentPrices = monthlyCommitmentPrices
    }
}

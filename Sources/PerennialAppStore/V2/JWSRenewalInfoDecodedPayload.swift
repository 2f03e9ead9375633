public import Foundation

/// The payload of signed renewal info (`signedRenewalInfo`): what Apple says about the next
/// renewal of one subscription. Apple's JSON keys as property names; every field optional, every
/// enum open (see ``JWSTransactionDecodedPayload`` for why).
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
    public var expirationIntent: AppleExpirationIntent?
    @Lenient<IdentifierText> public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    public var autoRenewStatus: AppleAutoRenewStatus?
    @Lenient<BooleanValue> public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: ApplePriceIncreaseStatus?
    @Lenient<EpochMilliseconds> public var gracePeriodExpiresDate: Date?
    public var offerType: AppleOfferType?
    public var offerIdentifier: String?
    /// When Apple signed this payload; the newest renewal info of a subscription wins.
    @Lenient<EpochMilliseconds> public var signedDate: Date?
    public var environment: AppleEnvironment?
    @Lenient<EpochMilliseconds> public var recentSubscriptionStartDate: Date?
    @Lenient<EpochMilliseconds> public var renewalDate: Date?
    /// ISO 4217 currency of `renewalPrice`.
    public var currency: String?
    /// Milli-units of `currency`.
    @Lenient<IntegerNumber<Int64>> public var renewalPrice: Int64?
    public var offerDiscountType: AppleOfferDiscountType?
    public var eligibleWinBackOfferIds: [String]?
    public var appAccountToken: UUID?
    @Lenient<IdentifierText> public var appTransactionId: String?
    /// ISO 8601 duration of the offer (`P1M`).
    public var offerPeriod: String?
    /// Advanced Commerce API data, carried verbatim.
    public var advancedCommerceInfo: JSONValue?
    public var commitmentInfo: RenewalCommitmentInfo?
    public var renewalBillingPlanType: BillingPlanType?

    /// Creates a payload; the simulator signs these, tests build them.
    public init(
        expirationIntent: AppleExpirationIntent? = nil,
        originalTransactionId: String? = nil,
        autoRenewProductId: String? = nil,
        productId: String? = nil,
        autoRenewStatus: AppleAutoRenewStatus? = nil,
        isInBillingRetryPeriod: Bool? = nil,
        priceIncreaseStatus: ApplePriceIncreaseStatus? = nil,
        gracePeriodExpiresDate: Date? = nil,
        offerType: AppleOfferType? = nil,
        offerIdentifier: String? = nil,
        signedDate: Date? = nil,
        environment: AppleEnvironment? = nil,
        recentSubscriptionStartDate: Date? = nil,
        renewalDate: Date? = nil,
        currency: String? = nil,
        renewalPrice: Int64? = nil,
        offerDiscountType: AppleOfferDiscountType? = nil,
        eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: UUID? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        advancedCommerceInfo: JSONValue? = nil,
        commitmentInfo: RenewalCommitmentInfo? = nil,
        renewalBillingPlanType: BillingPlanType? = nil
    ) {
        self.expirationIntent = expirationIntent
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.offerDiscountType = offerDiscountType
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.advancedCommerceInfo = advancedCommerceInfo
        self.commitmentInfo = commitmentInfo
        self.renewalBillingPlanType = renewalBillingPlanType
    }
}

public import Foundation

/// The payload of a signed transaction (`signedTransactionInfo`): what StoreKit 2, V2
/// notifications and the App Store Server API say about one transaction.
///
/// Property names are Apple's JSON keys so the model reads like Apple's documentation; every enum
/// is open and every field optional, because older payloads lack newer fields and a missing field
/// must be reported by normalization (which knows which ones matter), not by decoding.
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
    @Lenient<IdentifierText> public var originalTransactionId: String?
    @Lenient<IdentifierText> public var transactionId: String?
    /// Unique per subscription period across devices.
    @Lenient<IdentifierText> public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    @Lenient<EpochMilliseconds> public var purchaseDate: Date?
    @Lenient<EpochMilliseconds> public var originalPurchaseDate: Date?
    @Lenient<EpochMilliseconds> public var expiresDate: Date?
    @Lenient<IntegerNumber<Int>> public var quantity: Int?
    public var type: AppleProductType?
    public var appAccountToken: UUID?
    public var inAppOwnershipType: AppleOwnershipType?
    /// When Apple signed this payload; orders versions of the same transaction.
    @Lenient<EpochMilliseconds> public var signedDate: Date?
    public var revocationReason: AppleRevocationReason?
    @Lenient<EpochMilliseconds> public var revocationDate: Date?
    @Lenient<BooleanValue> public var isUpgraded: Bool?
    public var offerType: AppleOfferType?
    public var offerIdentifier: String?
    public var environment: AppleEnvironment?
    /// ISO 3166-1 alpha-3 country code.
    public var storefront: String?
    public var storefrontId: String?
    public var transactionReason: AppleTransactionReason?
    /// ISO 4217 currency of `price`.
    public var currency: String?
    /// Price in milli-units of `currency`.
    @Lenient<IntegerNumber<Int64>> public var price: Int64?
    public var offerDiscountType: AppleOfferDiscountType?
    @Lenient<IdentifierText> public var appTransactionId: String?
    /// ISO 8601 duration of the offer (`P1M`).
    public var offerPeriod: String?
    public var revocationType: AppleRevocationType?
    /// Refunded share in milli-percent (50000 = 50 %).
    @Lenient<IntegerNumber<Int>> public var revocationPercentage: Int?
    /// Advanced Commerce API data, carried verbatim.
    public var advancedCommerceInfo: JSONValue?
    public var billingPlanType: BillingPlanType?
    public var commitmentInfo: TransactionCommitmentInfo?
    /// Xcode StoreKit testing only.
    public var deviceVerification: String?
    /// Xcode StoreKit testing only.
    public var deviceVerificationNonce: UUID?

    /// Creates a payload; the simulator signs these, tests build them.
    public init(
        originalTransactionId: String? = nil,
        transactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        quantity: Int? = nil,
        type: AppleProductType? = nil,
        appAccountToken: UUID? = nil,
        inAppOwnershipType: AppleOwnershipType? = nil,
        signedDate: Date? = nil,
        revocationReason: AppleRevocationReason? = nil,
        revocationDate: Date? = nil,
        isUpgraded: Bool? = nil,
        offerType: AppleOfferType? = nil,
        offerIdentifier: String? = nil,
        environment: AppleEnvironment? = nil,
        storefront: String? = nil,
        storefrontId: String? = nil,
        transactionReason: AppleTransactionReason? = nil,
        currency: String? = nil,
        price: Int64? = nil,
        offerDiscountType: AppleOfferDiscountType? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        revocationType: AppleRevocationType? = nil,
        revocationPercentage: Int? = nil,
        advancedCommerceInfo: JSONValue? = nil,
        billingPlanType: BillingPlanType? = nil,
        commitmentInfo: TransactionCommitmentInfo? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: UUID? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.advancedCommerceInfo = advancedCommerceInfo
        self.billingPlanType = billingPlanType
        self.commitmentInfo = commitmentInfo
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
    }
}

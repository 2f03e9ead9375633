public import Foundation

/// The four kinds of in-app purchase.
public struct ProductType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let autoRenewable: Self = "autoRenewable"
    public static let nonRenewing: Self = "nonRenewing"
    public static let consumable: Self = "consumable"
    public static let nonConsumable: Self = "nonConsumable"
}

/// Whether the user bought the product or receives it through Family Sharing.
public struct Ownership: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let purchased: Self = "purchased"
    public static let familyShared: Self = "familyShared"
}

/// Why a transaction happened.
public struct TransactionReason: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer bought (or resubscribed, or changed plan).
    public static let purchase: Self = "purchase"
    /// An automatic renewal charge.
    public static let renewal: Self = "renewal"
}

/// Why Apple revoked a transaction (legacy `cancellation_reason`, V2 `revocationReason`).
public struct RevocationReason: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer cited an actual or perceived issue with the app (`1`).
    public static let developerIssue: Self = "developerIssue"
    /// Any other reason (`0`).
    public static let other: Self = "other"
}

/// How much of a transaction was taken back.
public struct RevocationType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let refundFull: Self = "refundFull"
    public static let refundProrated: Self = "refundProrated"
    public static let familyRevoke: Self = "familyRevoke"
}

/// A refund or revocation of one transaction. From `date` on the transaction grants nothing.
public struct Revocation: Hashable, Sendable, Codable {
    public var date: Date
    public var reason: RevocationReason?
    /// Full or prorated refund, or family-sharing revoke; nil when Apple does not say (legacy).
    public var type: RevocationType?
    /// For prorated refunds: the refunded share in milli-percent (Apple's `revocationPercentage`).
    public var percentage: Int?

    public init(date: Date, reason: RevocationReason?, type: RevocationType? = nil, percentage: Int? = nil) {
        self.date = date
        self.reason = reason
        self.type = type
        self.percentage = percentage
    }
}

/// One App Store transaction, the same record whichever evidence it came from (app receipt,
/// verifyReceipt, signed transaction, notification, Server API).
///
/// Records are keyed by `transactionID`; two versions of one transaction are ordered by
/// ``Provenance/versionDate`` and the newer wins (a refund reversal is a newer version without
/// ``revocation``).
public struct Transaction: Hashable, Sendable, Codable {
    public var transactionID: String
    /// The key of the subscription (or of the purchase, for other product types).
    public var originalTransactionID: String
    /// Unique per subscription period across devices (`web_order_line_item_id`).
    public var webOrderLineItemID: String?
    public var bundleID: String?
    public var productID: String
    public var productType: ProductType?
    public var subscriptionGroupID: String?
    public var purchaseDate: Date
    public var originalPurchaseDate: Date?
    /// End of the period this transaction pays for (auto-renewables and some non-renewing).
    public var expiresDate: Date?
    public var quantity: Int
    public var ownership: Ownership
    public var reason: TransactionReason?
    public var offer: Offer?
    /// The transaction was superseded by an upgrade (`is_upgraded`); it grants nothing once the
    /// upgrade's transaction starts.
    public var isUpgraded: Bool
    public var revocation: Revocation?
    public var price: Money?
    /// Three-letter storefront country code (`USA`).
    public var storefront: String?
    public var appAccountToken: UUID?
    /// How this period is billed; nil when Apple does not say (every plan billed up front).
    public var billingPlan: BillingPlan?
    /// The commitment this transaction pays a month of, for a monthly plan with a commitment.
    public var commitment: CommitmentPeriod?
    public var environment: AppStoreEnvironment
    public var provenance: Provenance

    public init(
        transactionID: String,
        originalTransactionID: String,
        webOrderLineItemID: String? = nil,
        bundleID: String? = nil,
        productID: String,
        productType: ProductType? = nil,
        subscriptionGroupID: String? = nil,
        purchaseDate: Date,
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        quantity: Int = 1,
        ownership: Ownership = .purchased,
        reason: TransactionReason? = nil,
        offer: Offer? = nil,
        isUpgraded: Bool = false,
        revocation: Revocation? = nil,
        price: Money? = nil,
        storefront: String? = nil,
        appAccountToken: UUID? = nil,
        billingPlan: BillingPlan? = nil,
        commitment: CommitmentPeriod? = nil,
        environment: AppStoreEnvironment,
        provenance: Provenance
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.webOrderLineItemID = webOrderLineItemID
        self.bundleID = bundleID
        self.productID = productID
        self.productType = productType
        self.subscriptionGroupID = subscriptionGroupID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.ownership = ownership
        self.reason = reason
        self.offer = offer
        self.isUpgraded = isUpgraded
        self.revocation = revocation
        self.price = price
        self.storefront = storefront
        self.appAccountToken = appAccountToken
        self.billingPlan = billingPlan
        self.commitment = commitment
        self.environment = environment
        self.provenance = provenance
    }
}

extension Transaction {
    /// The end of the commitment when it lies beyond this period: the monthly charges until then
    /// are owed whatever the auto-renew switch says, so the subscription goes on to there.
    public var commitmentContinuesUntil: Date? {
        guard let commitment, commitment.expiresDate > (expiresDate ?? purchaseDate) else { return nil }
        return commitment.expiresDate
    }
}

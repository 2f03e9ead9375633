public import Foundation

/// The server's answer about one app user (`SubscriberResponse` in docs/openapi.yaml), exactly as sent.
///
/// Kept separate from ``Subscriber`` (what apps read) because the app's view re-judges every
/// entitlement on the server's clock at the moment it is read, while this is the answer as of
/// ``serverTime``.
public struct SubscriberResponse: Codable, Sendable, Equatable {
    /// The server's clock when it answered; the SDK's measure of the device clock's error.
    public var serverTime: Date
    /// The subscriber's state.
    public var subscriber: ServerSubscriber
    /// Present only when this request moved a purchase from another app user.
    public var transfer: SubscriberTransfer?
    /// Present only when the user presented a purchase another app user owns and the server's
    /// transfer policy left it with them.
    public var kept: SubscriberKept?
    /// The server's signed bytes this answer was read from, when signed answers are configured
    /// (not part of the JSON): the cache keeps them to verify the answer again when it reads it
    /// back from disk.
    var signed: SignedAnswer?

    /// A response (tests and fakes build these).
    public init(serverTime: Date, subscriber: ServerSubscriber, transfer: SubscriberTransfer? = nil, kept: SubscriberKept? = nil) {
        self.serverTime = serverTime
        self.subscriber = subscriber
        self.transfer = transfer
        self.kept = kept
    }

    enum CodingKeys: String, CodingKey {
        case serverTime, subscriber, transfer, kept
    }
}

/// The subscriber object of a ``SubscriberResponse``.
public struct ServerSubscriber: Codable, Sendable, Equatable {
    /// The app user the state belongs to.
    public var appUserID: String
    /// Entitlements by identifier (`pro`), as the server judged them at its `serverTime`.
    public var entitlements: [String: ServerEntitlement]
    /// Every auto-renewable subscription the user holds or held.
    public var subscriptions: [ServerSubscription]
    /// Non-renewing purchases (lifetime unlocks, consumables the server tracks).
    public var purchases: [ServerPurchase]
    /// When and in which version the user first got the app, once the SDK posted the app transaction.
    public var originalAppPurchase: OriginalAppPurchase?

    /// A subscriber.
    public init(
        appUserID: String, entitlements: [String: ServerEntitlement] = [:], subscriptions: [ServerSubscription] = [],
        purchases: [ServerPurchase] = [], originalAppPurchase: OriginalAppPurchase? = nil
    ) {
        self.appUserID = appUserID
        self.entitlements = entitlements
        self.subscriptions = subscriptions
        self.purchases = purchases
        self.originalAppPurchase = originalAppPurchase
    }

    enum CodingKeys: String, CodingKey {
        case appUserID = "appUserId"
        case entitlements, subscriptions, purchases
        case originalAppPurchase = "appTransaction"
    }
}

/// The user's original purchase (or download) of the app, from its StoreKit 2 app transaction: what
/// lets an app that went from paid to free keep honouring the customers who paid.
public struct OriginalAppPurchase: Codable, Sendable, Equatable {
    /// The `CFBundleVersion` the customer first got (in the sandbox always `"1.0"`).
    public var originalApplicationVersion: String
    public var originalPurchaseDate: Date

    public init(originalApplicationVersion: String, originalPurchaseDate: Date) {
        self.originalApplicationVersion = originalApplicationVersion
        self.originalPurchaseDate = originalPurchaseDate
    }
}

/// One entitlement as the server judged it.
public struct ServerEntitlement: Codable, Sendable, Equatable {
    /// The server's judgement at its `serverTime`; the SDK re-judges from ``expiresDate``.
    public var isActive: Bool
    /// The product that grants it.
    public var productID: String
    /// The access end (grace period included); nil for a lifetime purchase.
    public var expiresDate: Date?
    /// The subscription it comes from.
    public var originalTransactionID: String
    /// The subscription's latest transaction.
    public var transactionID: String

    /// An entitlement.
    public init(isActive: Bool, productID: String, expiresDate: Date?, originalTransactionID: String, transactionID: String) {
        self.isActive = isActive
        self.productID = productID
        self.expiresDate = expiresDate
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
    }

    enum CodingKeys: String, CodingKey {
        case isActive
        case productID = "productId"
        case expiresDate
        case originalTransactionID = "originalTransactionId"
        case transactionID = "transactionId"
    }

    /// Encodes `expiresDate` as an explicit `null` for a lifetime purchase, as the contract shows.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isActive, forKey: .isActive)
        try container.encode(productID, forKey: .productID)
        try container.encode(expiresDate, forKey: .expiresDate)
        try container.encode(originalTransactionID, forKey: .originalTransactionID)
        try container.encode(transactionID, forKey: .transactionID)
    }
}

/// One auto-renewable subscription as the server derived it.
public struct ServerSubscription: Codable, Sendable, Equatable {
    /// The subscription's identity: its first transaction id.
    public var originalTransactionID: String
    /// The product of the current period.
    public var productID: String
    /// The subscription group.
    public var groupID: String?
    /// Where the subscription stands.
    public var status: SubscriptionStatus
    /// The end of the current period (without grace).
    public var expiresDate: Date?
    /// When access ends, grace period included.
    public var accessExpiresDate: Date?
    /// Whether auto-renew is on.
    public var willRenew: Bool
    /// Trial, introductory offer or regular price.
    public var periodType: PeriodType?
    /// The product the next renewal will be, when it differs (a pending downgrade).
    public var renewalProductID: String?
    /// `Sandbox` or `Production`.
    public var environment: String?

    /// A subscription.
    public init(
        originalTransactionID: String, productID: String, groupID: String? = nil, status: SubscriptionStatus,
        expiresDate: Date? = nil, accessExpiresDate: Date? = nil, willRenew: Bool, periodType: PeriodType? = nil,
        renewalProductID: String? = nil, environment: String? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.groupID = groupID
        self.status = status
        self.expiresDate = expiresDate
        self.accessExpiresDate = accessExpiresDate
        self.willRenew = willRenew
        self.periodType = periodType
        self.renewalProductID = renewalProductID
        self.environment = environment
    }

    enum CodingKeys: String, CodingKey {
        case originalTransactionID = "originalTransactionId"
        case productID = "productId"
        case groupID = "groupId"
        case status, expiresDate, accessExpiresDate, willRenew, periodType
        case renewalProductID = "renewalProductId"
        case environment
    }
}

/// A non-renewing purchase as the server recorded it.
public struct ServerPurchase: Codable, Sendable, Equatable {
    /// The product bought.
    public var productID: String
    /// The purchase's transaction.
    public var transactionID: String
    /// The purchase's first transaction id.
    public var originalTransactionID: String
    /// When it was bought.
    public var purchaseDate: Date
    /// False once refunded or revoked.
    public var isActive: Bool

    /// A purchase.
    public init(productID: String, transactionID: String, originalTransactionID: String, purchaseDate: Date, isActive: Bool) {
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.isActive = isActive
    }

    enum CodingKeys: String, CodingKey {
        case productID = "productId"
        case transactionID = "transactionId"
        case originalTransactionID = "originalTransactionId"
        case purchaseDate, isActive
    }
}

/// Says that the request moved a purchase away from another app user (the server's transfer rule).
public struct SubscriberTransfer: Codable, Sendable, Equatable {
    /// The app user who held the purchase before.
    public var previousOwner: String

    /// A transfer.
    public init(previousOwner: String) {
        self.previousOwner = previousOwner
    }
}

/// Says that a purchase the user presented stays with another app user (the server's
/// `keepWithOriginalOwner` policy): after ``Perennial/logIn(_:)``, what the anonymous user bought
/// is still theirs, which is why the logged-in user is not entitled by it.
public struct SubscriberKept: Codable, Sendable, Equatable {
    /// The app user who keeps the purchase.
    public var owner: String

    /// A purchase kept by `owner`.
    public init(owner: String) {
        self.owner = owner
    }
}

public import Foundation

/// The server's answer about one app user (`SubscriberResponse` in docs/openapi.yaml): what the
/// server sends and the SDK reads, one type for both so that a field cannot be added to one side
/// only.
///
/// It is the answer as of ``serverTime``, computed at the server's clock from the stored records;
/// the SDK's ``Subscriber`` re-judges every entitlement on the server's clock when it is read.
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
    /// The server's signed bytes this answer was read from, when the SDK verifies signed answers
    /// (not part of the JSON): its cache keeps them to verify the answer again when it reads it
    /// back from disk, since re-encoded JSON would no longer match the signature.
    package var signed: SignedAnswer?

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
    /// Non-renewing purchases (lifetime unlocks, non-renewing subscriptions).
    public var purchases: [ServerPurchase]
    /// When and in which version the user first got the app, once the app posted its app transaction.
    public var originalAppPurchase: OriginalAppPurchase?
    /// Present when an operator ever gave the user a grant in the app, oldest first.
    public var grants: [ServerGrant]?

    public init(
        appUserID: String, entitlements: [String: ServerEntitlement] = [:], subscriptions: [ServerSubscription] = [],
        purchases: [ServerPurchase] = [], originalAppPurchase: OriginalAppPurchase? = nil, grants: [ServerGrant]? = nil
    ) {
        self.appUserID = appUserID
        self.entitlements = entitlements
        self.subscriptions = subscriptions
        self.purchases = purchases
        self.originalAppPurchase = originalAppPurchase
        self.grants = grants
    }

    enum CodingKeys: String, CodingKey {
        case appUserID = "appUserId"
        case entitlements, subscriptions, purchases, grants
        case originalAppPurchase = "appTransaction"
    }
}

/// The user's original purchase (or download) of the app, from its StoreKit 2 app transaction: what
/// lets an app that went from paid to free keep honouring the customers who paid.
public struct OriginalAppPurchase: Codable, Sendable, Equatable {
    /// Absent for app transactions signed before iOS 18.4.
    public var appTransactionID: String?
    /// `Sandbox` or `Production`.
    public var environment: String
    /// The `CFBundleVersion` the customer first got (in the sandbox always `"1.0"`).
    public var originalApplicationVersion: String
    public var originalPurchaseDate: Date
    /// Apple's `originalPlatform` (`iOS`, `macOS`, `tvOS`, `visionOS`, or one Apple adds): where the
    /// customer first got the app; absent when the app transaction does not say.
    public var originalPlatform: String?

    public init(
        appTransactionID: String? = nil, environment: String, originalApplicationVersion: String, originalPurchaseDate: Date,
        originalPlatform: String? = nil
    ) {
        self.appTransactionID = appTransactionID
        self.environment = environment
        self.originalApplicationVersion = originalApplicationVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.originalPlatform = originalPlatform
    }

    enum CodingKeys: String, CodingKey {
        case appTransactionID = "appTransactionId"
        case environment, originalApplicationVersion, originalPurchaseDate, originalPlatform
    }
}

/// One entitlement as the server judged it.
public struct ServerEntitlement: Codable, Sendable, Equatable {
    /// The server's judgement at its `serverTime`; the SDK re-judges from ``expiresDate``.
    public var isActive: Bool
    /// The product that grants it (`grant` when an operator's grant does).
    public var productID: String
    /// The access end (grace period included); nil for a purchase that does not expire.
    public var expiresDate: Date?
    /// The subscription it comes from (the grant's id when a grant decides it).
    public var originalTransactionID: String
    /// The subscription's latest transaction (the grant's id when a grant decides it).
    public var transactionID: String
    /// Present when an operator's grant decides it: the grant, listed in ``ServerSubscriber/grants``.
    public var grantID: String?

    public init(isActive: Bool, productID: String, expiresDate: Date?, originalTransactionID: String, transactionID: String, grantID: String? = nil) {
        self.isActive = isActive
        self.productID = productID
        self.expiresDate = expiresDate
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.grantID = grantID
    }

    enum CodingKeys: String, CodingKey {
        case isActive
        case productID = "productId"
        case expiresDate
        case originalTransactionID = "originalTransactionId"
        case transactionID = "transactionId"
        case grantID = "grantId"
    }

    /// Writes `expiresDate` as an explicit `null` for a purchase that does not expire, as the
    /// contract requires the key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isActive, forKey: .isActive)
        try container.encode(productID, forKey: .productID)
        try container.encode(expiresDate, forKey: .expiresDate)
        try container.encode(originalTransactionID, forKey: .originalTransactionID)
        try container.encode(transactionID, forKey: .transactionID)
        try container.encodeIfPresent(grantID, forKey: .grantID)
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
    public var expiresDate: Date
    /// When access ends, grace period included; nil without access.
    public var accessExpiresDate: Date?
    /// Whether auto-renew is on.
    public var willRenew: Bool
    /// Trial, introductory offer or regular price.
    public var periodType: PeriodType
    /// The product the next renewal will be, when it differs (a pending downgrade).
    public var renewalProductID: String?
    /// `Sandbox` or `Production`.
    public var environment: String

    public init(
        originalTransactionID: String, productID: String, groupID: String? = nil, status: SubscriptionStatus, expiresDate: Date,
        accessExpiresDate: Date? = nil, willRenew: Bool, periodType: PeriodType = .normal, renewalProductID: String? = nil,
        environment: String = "Production"
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

    /// Writes the nullable keys as explicit `null`s, as the contract requires them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(originalTransactionID, forKey: .originalTransactionID)
        try container.encode(productID, forKey: .productID)
        try container.encode(groupID, forKey: .groupID)
        try container.encode(status, forKey: .status)
        try container.encode(expiresDate, forKey: .expiresDate)
        try container.encode(accessExpiresDate, forKey: .accessExpiresDate)
        try container.encode(willRenew, forKey: .willRenew)
        try container.encode(periodType, forKey: .periodType)
        try container.encode(renewalProductID, forKey: .renewalProductID)
        try container.encode(environment, forKey: .environment)
    }
}

/// A purchase that is not an auto-renewable subscription, as the server recorded it.
public struct ServerPurchase: Codable, Sendable, Equatable {
    /// The product bought.
    public var productID: String
    /// The purchase's transaction.
    public var transactionID: String
    /// The purchase's first transaction id.
    public var originalTransactionID: String
    /// When it was bought.
    public var purchaseDate: Date
    /// The end of a non-renewing subscription; nil for purchases that do not expire.
    public var expiresDate: Date?
    /// False once refunded, revoked or (a non-renewing subscription) past its end.
    public var isActive: Bool

    public init(
        productID: String, transactionID: String, originalTransactionID: String, purchaseDate: Date, expiresDate: Date? = nil, isActive: Bool
    ) {
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.isActive = isActive
    }

    enum CodingKeys: String, CodingKey {
        case productID = "productId"
        case transactionID = "transactionId"
        case originalTransactionID = "originalTransactionId"
        case purchaseDate, expiresDate, isActive
    }
}

/// An entitlement an operator gave outside any purchase, listed beside the purchases.
public struct ServerGrant: Codable, Sendable, Equatable {
    public var grantID: String
    public var entitlementID: String
    public var startsAt: Date
    public var expiresAt: Date
    /// When an operator ended it early.
    public var revokedAt: Date?
    /// Judged at the answer's `serverTime`.
    public var isActive: Bool
    /// The admin key's name, and why.
    public var grantedBy: String
    public var reason: String?
    public var revokedBy: String?
    public var revokeReason: String?

    public init(
        grantID: String, entitlementID: String, startsAt: Date, expiresAt: Date, revokedAt: Date? = nil, isActive: Bool, grantedBy: String,
        reason: String? = nil, revokedBy: String? = nil, revokeReason: String? = nil
    ) {
        self.grantID = grantID
        self.entitlementID = entitlementID
        self.startsAt = startsAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.isActive = isActive
        self.grantedBy = grantedBy
        self.reason = reason
        self.revokedBy = revokedBy
        self.revokeReason = revokeReason
    }

    enum CodingKeys: String, CodingKey {
        case grantID = "grantId"
        case entitlementID = "entitlementId"
        case startsAt, expiresAt, revokedAt, isActive, grantedBy, reason, revokedBy, revokeReason
    }
}

/// Says that the request moved a purchase away from another app user (the server's transfer rule).
public struct SubscriberTransfer: Codable, Sendable, Equatable {
    /// The app user who held the purchase before.
    public var previousOwner: String

    public init(previousOwner: String) {
        self.previousOwner = previousOwner
    }
}

/// Says that a purchase the user presented stays with another app user (the server's
/// `keepWithOriginalOwner` policy): after a log-in, what the anonymous user bought is still
/// theirs, which is why the logged-in user is not entitled by it.
public struct SubscriberKept: Codable, Sendable, Equatable {
    /// The app user who keeps the purchase.
    public var owner: String

    public init(owner: String) {
        self.owner = owner
    }
}

public import Foundation
public import PerennialCore
public import PerennialStorage

/// The authoritative answer about one app user (docs/openapi.yaml): computed at the server's clock
/// from the records — the view the request's own apply computed, or the stored records read now —
/// never from a cache.
public struct SubscriberResponse: Codable, Equatable, Sendable {
    /// One entitlement, keyed by its id in ``Subscriber/entitlements``.
    public struct Entitlement: Codable, Equatable, Sendable {
        public var isActive: Bool
        public var productId: String
        /// The access end (grace period included); nil (`null`) for a purchase that does not expire.
        public var expiresDate: Date?
        public var originalTransactionId: String
        public var transactionId: String
        /// Present when an operator's grant decides it (its product is `grant`, its transaction
        /// ids the grant's id); absent when a purchase does.
        public var grantId: String? = nil

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isActive, forKey: .isActive)
            try container.encode(productId, forKey: .productId)
            try container.encode(expiresDate, forKey: .expiresDate)
            try container.encode(originalTransactionId, forKey: .originalTransactionId)
            try container.encode(transactionId, forKey: .transactionId)
            try container.encodeIfPresent(grantId, forKey: .grantId)
        }
    }

    /// An entitlement an operator gave outside any purchase, listed beside the purchases.
    public struct Grant: Codable, Equatable, Sendable {
        public var grantId: String
        public var entitlementId: String
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
    }

    /// One auto-renewable subscription.
    public struct Subscription: Codable, Equatable, Sendable {
        public var originalTransactionId: String
        public var productId: String
        public var groupId: String?
        /// `active`, `inGracePeriod`, `inBillingRetry`, `expired` or `revoked`.
        public var status: String
        public var expiresDate: Date
        /// Until when access lasts; `null` without access.
        public var accessExpiresDate: Date?
        public var willRenew: Bool
        /// Perennial's period type (`normal`, `freeTrial`, `introductoryPayAsYouGo`, …).
        public var periodType: String
        public var renewalProductId: String?
        public var environment: String

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(originalTransactionId, forKey: .originalTransactionId)
            try container.encode(productId, forKey: .productId)
            try container.encode(groupId, forKey: .groupId)
            try container.encode(status, forKey: .status)
            try container.encode(expiresDate, forKey: .expiresDate)
            try container.encode(accessExpiresDate, forKey: .accessExpiresDate)
            try container.encode(willRenew, forKey: .willRenew)
            try container.encode(periodType, forKey: .periodType)
            try container.encode(renewalProductId, forKey: .renewalProductId)
            try container.encode(environment, forKey: .environment)
        }
    }

    /// A purchase that is not an auto-renewable subscription.
    public struct Purchase: Codable, Equatable, Sendable {
        public var productId: String
        public var transactionId: String
        public var originalTransactionId: String
        public var purchaseDate: Date
        /// The end of a non-renewing subscription; absent for purchases that do not expire.
        public var expiresDate: Date?
        public var isActive: Bool
    }

    /// The user's original purchase of the app, proven by a StoreKit 2 app transaction the app
    /// posted (`POST /v1/subscribers/{appUserId}/app-transaction`): lets an app that went from paid
    /// to freemium honour the customers who paid for it.
    public struct AppTransaction: Codable, Equatable, Sendable {
        /// Absent for app transactions signed before iOS 18.4.
        public var appTransactionId: String?
        public var environment: String
        public var originalApplicationVersion: String
        public var originalPurchaseDate: Date
        /// Apple's `originalPlatform` (`iOS`, `macOS`, `tvOS`, `visionOS`, or one Apple adds):
        /// where the customer first got the app. Absent for app transactions that do not say.
        public var originalPlatform: String?
    }

    public struct Subscriber: Codable, Equatable, Sendable {
        /// Present once the app posted the user's app transaction.
        public var appTransaction: AppTransaction?
        public var appUserId: String
        public var entitlements: [String: Entitlement]
        public var subscriptions: [Subscription]
        public var purchases: [Purchase]
        /// Present when an operator ever gave the user a grant in the app, oldest first.
        public var grants: [Grant]? = nil
    }

    /// Present only when this request moved a purchase to the requesting user.
    public struct Transfer: Codable, Equatable, Sendable {
        public var previousOwner: String
    }

    /// Present only when the requesting user presented a purchase another user owns and the app's
    /// transfer policy (`keepWithOriginalOwner`) left it with them: the app learns why the
    /// purchase grants this user nothing.
    public struct Kept: Codable, Equatable, Sendable {
        public var owner: String
    }

    public var serverTime: Date
    public var subscriber: Subscriber
    public var transfer: Transfer?
    public var kept: Kept?
}

extension SubscriberResponse {
    /// Renders `view` (computed at `serverTime`, its entitlements counting `grants`) for `user`.
    public init(
        user: AppUserID, view: SubscriberView, grants: [EntitlementGrant] = [], serverTime: Date, previousOwner: AppUserID? = nil,
        keptBy: AppUserID? = nil, originalAppPurchase: OriginalAppPurchase? = nil
    ) {
        self.serverTime = serverTime
        var entitlements: [String: Entitlement] = [:]
        for state in view.entitlements {
            entitlements[state.entitlementID] = Entitlement(
                isActive: state.isActive, productId: state.productID, expiresDate: state.expiresDate,
                originalTransactionId: state.originalTransactionID, transactionId: state.transactionID, grantId: state.grantID)
        }
        subscriber = Subscriber(
            appTransaction: originalAppPurchase.map(AppTransaction.init),
            appUserId: user.rawValue, entitlements: entitlements,
            subscriptions: view.subscriptions.map { state in
                Subscription(
                    originalTransactionId: state.originalTransactionID, productId: state.productID, groupId: state.subscriptionGroupID,
                    status: state.status.rawValue, expiresDate: state.expiresDate, accessExpiresDate: state.accessExpiresDate,
                    willRenew: state.willRenew, periodType: state.periodType.rawValue, renewalProductId: state.renewalProductID,
                    environment: state.environment.rawValue)
            },
            purchases: view.purchases.map { state in
                Purchase(
                    productId: state.productID, transactionId: state.transactionID, originalTransactionId: state.originalTransactionID,
                    purchaseDate: state.purchaseDate, expiresDate: state.expiresDate, isActive: state.isActive)
            },
            grants: grants.isEmpty ? nil : grants.map { Grant($0, at: serverTime) })
        transfer = previousOwner.map { Transfer(previousOwner: $0.rawValue) }
        kept = keptBy.map { Kept(owner: $0.rawValue) }
    }
}

extension SubscriberResponse.Grant {
    /// `grant` as the API shows it, judged at `date`.
    init(_ grant: EntitlementGrant, at date: Date) {
        self.init(
            grantId: grant.id, entitlementId: grant.entitlementID, startsAt: grant.startsAt, expiresAt: grant.expiresAt,
            revokedAt: grant.revokedAt, isActive: grant.isActive(at: date), grantedBy: grant.grantedBy, reason: grant.reason,
            revokedBy: grant.revokedBy, revokeReason: grant.revokeReason)
    }
}

extension SubscriberResponse.AppTransaction {
    /// The answer's form of a stored original purchase.
    init(_ purchase: OriginalAppPurchase) {
        self.init(
            appTransactionId: purchase.appTransactionID, environment: purchase.environment.rawValue,
            originalApplicationVersion: purchase.originalApplicationVersion, originalPurchaseDate: purchase.originalPurchaseDate,
            originalPlatform: purchase.originalPlatform)
    }
}

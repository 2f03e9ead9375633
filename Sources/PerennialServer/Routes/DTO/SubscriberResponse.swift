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

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isActive, forKey: .isActive)
            try container.encode(productId, forKey: .productId)
            try container.encode(expiresDate, forKey: .expiresDate)
            try container.encode(originalTransactionId, forKey: .originalTransactionId)
            try container.encode(transactionId, forKey: .transactionId)
        }
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
    }

    public struct Subscriber: Codable, Equatable, Sendable {
        /// Present once the app posted the user's app transaction.
        public var appTransaction: AppTransaction?
        public var appUserId: String
        public var entitlements: [String: Entitlement]
        public var subscriptions: [Subscription]
        public var purchases: [Purchase]
    }

    /// Present only when this request moved a purchase to the requesting user.
    public struct Transfer: Codable, Equatable, Sendable {
        public var previousOwner: String
    }

    public var serverTime: Date
    public var subscriber: Subscriber
    public var transfer: Transfer?
}

extension SubscriberResponse {
    /// Renders `view` (computed at `serverTime`) for `user`.
    public init(
        user: AppUserID, view: SubscriberView, serverTime: Date, previousOwner: AppUserID? = nil, originalAppPurchase: OriginalAppPurchase? = nil
    ) {
        self.serverTime = serverTime
        var entitlements: [String: Entitlement] = [:]
        for state in view.entitlements {
            entitlements[state.entitlementID] = Entitlement(
                isActive: state.isActive, productId: state.productID, expiresDate: state.expiresDate,
                originalTransactionId: state.originalTransactionID, transactionId: state.transactionID)
        }
        subscriber = Subscriber(
            appTransaction: originalAppPurchase.map { purchase in
                AppTransaction(
                    appTransactionId: purchase.appTransactionID, environment: purchase.environment.rawValue,
                    originalApplicationVersion: purchase.originalApplicationVersion, originalPurchaseDate: purchase.originalPurchaseDate)
            },
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
            })
        transfer = previousOwner.map { Transfer(previousOwner: $0.rawValue) }
    }
}

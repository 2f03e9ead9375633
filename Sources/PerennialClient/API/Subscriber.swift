public import Foundation

/// What the app reads about its user: entitlements judged on the server's clock at one instant,
/// plus the subscriptions and purchases behind them.
public struct Subscriber: Sendable, Equatable {
    /// The app user this is about.
    public let appUserID: String
    /// Every entitlement the server knows for the user, active or not, by identifier.
    public let entitlements: [String: Entitlement]
    /// The user's subscriptions as the server derived them.
    public let subscriptions: [ServerSubscription]
    /// The user's non-renewing purchases.
    public let purchases: [ServerPurchase]
    /// The server's time (estimated) at which the entitlements were judged.
    public let serverNow: Date
    /// The server's clock when it last answered.
    public let lastServerContact: Date
    /// True when the server has not answered for longer than the configured interval: the
    /// entitlements are the last known, not necessarily the current ones.
    public let isStale: Bool
    /// Present when the answer moved a purchase from another app user.
    public let transfer: SubscriberTransfer?
    /// Present when a purchase the user presented stays with another app user (the server's
    /// transfer policy keeps purchases with their first owner).
    public let kept: SubscriberKept?
    /// When and in which version the user first got the app; nil until the server knows (the SDK
    /// posts the app transaction at ``Perennial/start()`` where the store has one).
    public let originalAppPurchase: OriginalAppPurchase?
    /// Where the entitlements come from.
    public let source: Source

    /// Where a ``Subscriber``'s entitlements come from.
    public enum Source: Sendable, Equatable {
        /// The server's answer (fresh or cached).
        case server
        /// The server could not be reached: the store's current entitlements mapped through the
        /// catalog (``PerennialConfiguration/offlineEntitlements``), unverified by the server and
        /// given for at most ``PerennialConfiguration/offlineFallbackLimit``.
        case storeFallback
    }

    init(response: SubscriberResponse, serverNow: Date, isStale: Bool) {
        self.appUserID = response.subscriber.appUserID
        self.entitlements = Dictionary(
            uniqueKeysWithValues: response.subscriber.entitlements.map { identifier, entitlement in
                (identifier, Entitlement(identifier: identifier, server: entitlement, serverNow: serverNow))
            })
        self.subscriptions = response.subscriber.subscriptions
        self.purchases = response.subscriber.purchases
        self.serverNow = serverNow
        self.lastServerContact = response.serverTime
        self.isStale = isStale
        self.transfer = response.transfer
        self.kept = response.kept
        self.originalAppPurchase = response.subscriber.originalAppPurchase
        self.source = .server
    }

    /// The offline fallback's view: entitlements granted by the store's current transactions.
    init(storeFallbackFor appUserID: String, entitlements: [String: Entitlement], now: Date, lastServerContact: Date?) {
        self.appUserID = appUserID
        self.entitlements = entitlements
        self.subscriptions = []
        self.purchases = []
        self.serverNow = now
        self.lastServerContact = lastServerContact ?? .distantPast
        self.isStale = true
        self.transfer = nil
        self.kept = nil
        self.originalAppPurchase = nil
        self.source = .storeFallback
    }

    /// Identifiers of the entitlements active now: what the app unlocks.
    public var activeEntitlements: Set<String> {
        Set(entitlements.values.filter(\.isActive).map(\.identifier))
    }
}

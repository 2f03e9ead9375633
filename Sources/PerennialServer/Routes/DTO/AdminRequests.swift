/// The body of an admin action: why, as the operator writes it (kept in the timeline).
public struct ActionRequest: Codable, Equatable, Sendable {
    public var reason: String?
}

/// `POST /admin/v1/apps/{appId}/subscriptions/{originalTransactionId}/extend`.
public struct ExtensionRequest: Codable, Equatable, Sendable {
    /// 1–90 days (Apple's limit for one extension; Apple allows two per year per subscription).
    public var extendByDays: Int
    /// Apple's reason: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var extendReasonCode: Int
    /// Why, for the timeline.
    public var reason: String?

    public init(extendByDays: Int, extendReasonCode: Int, reason: String? = nil) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.reason = reason
    }
}

/// `POST /admin/v1/apps/{appId}/subscriptions/{originalTransactionId}/move`.
public struct MoveRequest: Codable, Equatable, Sendable {
    /// The app user the purchase moves to.
    public var toAppUserId: String
    /// Why, for the timeline.
    public var reason: String?
}

/// `POST /admin/v1/apps/{appId}/subscribers/{appUserId}/grants`: one of `expiresAt` and
/// `duration` says when the grant ends.
public struct GrantRequest: Codable, Equatable, Sendable {
    /// A catalog entitlement.
    public var entitlementId: String
    /// An ISO 8601 instant after now (`2026-12-01T00:00:00Z`).
    public var expiresAt: String?
    /// An ISO 8601 duration from now: `P3D`, `P2W`, `P1M`, `P1Y`.
    public var duration: String?
    /// Why, for the timeline and the webhook.
    public var reason: String?

    public init(entitlementId: String, expiresAt: String? = nil, duration: String? = nil, reason: String? = nil) {
        self.entitlementId = entitlementId
        self.expiresAt = expiresAt
        self.duration = duration
        self.reason = reason
    }
}

/// `POST /admin/v1/apps/{appId}/products/{productId}/mass-extensions`.
public struct MassExtensionRequest: Codable, Equatable, Sendable {
    /// 1–90 days.
    public var extendByDays: Int
    /// Apple's reason: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var extendReasonCode: Int
    /// ISO 3166-1 alpha-3 storefronts; every storefront when absent.
    public var storefrontCountryCodes: [String]?
    /// Why, for each extended subscriber's timeline.
    public var reason: String?

    public init(extendByDays: Int, extendReasonCode: Int, storefrontCountryCodes: [String]? = nil, reason: String? = nil) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.storefrontCountryCodes = storefrontCountryCodes
        self.reason = reason
    }
}

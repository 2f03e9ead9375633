public import Foundation

/// An entitlement an operator gave an app user until a date, outside any purchase (a customer
/// compensated for an outage, a reviewer, a partner): it counts beside the purchases' entitlements
/// in every answer, and is told apart from them by ``id``.
///
/// Not one of Apple's records: nothing about it is merged or reconciled, so it lives beside the
/// records rather than among them, and the engine only reads it (``SubscriberEngine/view(_:granting:)``).
public struct EntitlementGrant: Hashable, Sendable, Codable {
    /// What a grant's outbox entries and webhooks are called (their `type`).
    public enum EventKind: String, Hashable, Sendable, Codable, CaseIterable {
        /// An operator gave the entitlement.
        case entitlementGranted
        /// An operator took it back before its end.
        case grantRevoked
    }

    /// Perennial's id (`grant_` and a UUID), named in the answer's entitlement and the timeline.
    public var id: String
    /// A catalog entitlement.
    public var entitlementID: String
    public var startsAt: Date
    /// When access ends unless revoked before.
    public var expiresAt: Date
    /// When an operator ended it early; nil while it runs its course.
    public var revokedAt: Date?
    /// The admin key's name that gave it, and why.
    public var grantedBy: String
    public var reason: String?
    /// The admin key's name that revoked it, and why.
    public var revokedBy: String?
    public var revokeReason: String?

    public init(
        id: String, entitlementID: String, startsAt: Date, expiresAt: Date, grantedBy: String, reason: String?, revokedAt: Date? = nil,
        revokedBy: String? = nil, revokeReason: String? = nil
    ) {
        self.id = id
        self.entitlementID = entitlementID
        self.startsAt = startsAt
        self.expiresAt = expiresAt
        self.grantedBy = grantedBy
        self.reason = reason
        self.revokedAt = revokedAt
        self.revokedBy = revokedBy
        self.revokeReason = revokeReason
    }

    /// The end of access: the revocation when it came first, else the expiry.
    public var accessEndsAt: Date { revokedAt.map { min($0, expiresAt) } ?? expiresAt }

    /// Whether the grant gives access at `now` (server time).
    public func isActive(at now: Date) -> Bool { startsAt <= now && now < accessEndsAt }

    /// What a grant reports as the entitlement's product, in place of a product id.
    public static let productID = "grant"

    /// The id of the grant's event of `kind`: the same whenever it is written, so a retried
    /// request cannot enqueue it twice.
    public func eventID(_ kind: EventKind) -> String { EventID.make([kind.rawValue, id]) }
}

import PerennialWire
import Foundation
import Logging
import PerennialCore
import PerennialStorage

/// Giving an app user an entitlement until a date (or for a duration): what support does for a
/// customer hit by an outage, a reviewer, a partner. A grant counts in every answer beside the
/// purchases (the entitlement names it with `grantId`), and it is one transaction with its webhook
/// event and its timeline entry naming the admin key and why. An unknown entitlement or user, or
/// an end not after now, is refused with nothing stored.
struct GrantEntitlement: OperatorAction {
    static let scope = AdminScope.support

    let request: GrantRequest
    let user: AppUserID
    let app: AppContext

    /// The user's answer with the grant counted.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> SubscriberResponse {
        guard app.engine.catalog.entitlements.contains(where: { $0.id == request.entitlementId }) else {
            throw GrantError.unknownEntitlement(request.entitlementId, app: app.id)
        }
        let now = dependencies.clock.now
        let expiresAt = try Self.end(of: request, from: now)
        let grant = EntitlementGrant(
            id: "grant_\(UUID().uuidString.lowercased())", entitlementID: request.entitlementId, startsAt: now, expiresAt: expiresAt,
            grantedBy: key.name, reason: request.reason)
        let action = AdminAction(admin: key.name, action: "grant", reason: request.reason)
        let write = try GrantWrite.granting(grant, to: user, appBundleID: app.bundleID, by: action, now: now)
        guard try await dependencies.storage.addGrant(write) else { throw GrantError.unknownUser(user.rawValue, app: app.id) }
        dependencies.logger.info(
            "admin action: entitlement granted",
            metadata: [
                "admin": "\(key.name)", "app": "\(app.id)", "appUserId": "\(user)", "grantId": "\(grant.id)", "entitlement": "\(grant.entitlementID)",
            ])
        return try await dependencies.pipeline(for: app).answer(for: user, now: now)
    }

    /// The end the request asks for: an instant, or a duration from `now`; it must come after `now`
    /// and within a century. A later end is a typo, not a lifetime: `P99999999999Y` ended in the year
    /// 100000002025, which the SDK's date parser refuses, so the user's whole answer failed to decode.
    private static func end(of body: GrantRequest, from now: Date) throws(GrantError) -> Date {
        let end: Date
        let asked: String
        switch (body.expiresAt, body.duration) {
        case (let text?, nil):
            asked = text
            guard let date = Self.instant(text) else {
                throw .invalidEnd("expiresAt must be an ISO 8601 instant such as 2026-12-01T00:00:00Z, got \"\(text)\"")
            }
            end = date
        case (nil, let text?):
            asked = text
            guard let duration = SubscriptionDuration(iso8601: text) else {
                throw .invalidEnd("duration must be an ISO 8601 duration of one component (P3D, P2W, P1M, P1Y), got \"\(text)\"")
            }
            // Past a century whatever the calendar (the limit below says so); adding it could overflow.
            end = duration.months > 100 * 12 || duration.days > 100 * 366 ? .distantFuture : duration.end(startingAt: now)
        default:
            throw .invalidEnd("give exactly one of expiresAt (an instant) and duration (from now)")
        }
        guard end > now else { throw .endsInThePast(APIJSON.string(from: end)) }
        let latest = UTCCalendar.adding(months: 100 * 12, to: now)
        guard end <= latest else { throw .invalidEnd("a grant ends within 100 years, by \(APIJSON.string(from: latest)); got \"\(asked)\"") }
        return end
    }

    private static func instant(_ text: String) -> Date? {
        (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
    }
}

/// Ending a user's running grant now, taking back early what ``GrantEntitlement`` gave; one
/// transaction with its event and timeline entry.
struct RevokeGrant: OperatorAction {
    static let scope = AdminScope.support

    let grantID: String
    let user: AppUserID
    let app: AppContext
    let reason: String?

    /// The user's answer without the grant.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> SubscriberResponse {
        let now = dependencies.clock.now
        let action = AdminAction(admin: key.name, action: "revokeGrant", reason: reason)
        guard try await dependencies.storage.revokeGrant(id: grantID, of: user, appBundleID: app.bundleID, by: action, at: now) != nil else {
            throw GrantError.noRunningGrant(grantID, user: user.rawValue)
        }
        dependencies.logger.info(
            "admin action: grant revoked", metadata: ["admin": "\(key.name)", "app": "\(app.id)", "appUserId": "\(user)", "grantId": "\(grantID)"])
        return try await dependencies.pipeline(for: app).answer(for: user, now: now)
    }
}

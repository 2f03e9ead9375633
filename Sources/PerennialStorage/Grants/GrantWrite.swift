public import Foundation
public import PerennialCore

/// One change of a grant as every back end writes it: the grant's new form, the event that tells
/// webhooks, and the timeline entry naming the operator. Decided here once, so a back end only
/// writes the rows.
public struct GrantWrite: Hashable, Sendable {
    public var grant: EntitlementGrant
    public var appUserID: AppUserID
    public var appBundleID: String
    public var event: OutboxEntry.Draft
    public var audit: AuditEntry.Draft

    /// `grant` given to `user` by `action` at `now`.
    public static func granting(
        _ grant: EntitlementGrant, to user: AppUserID, appBundleID: String, by action: AdminAction, now: Date
    ) throws(StorageError) -> GrantWrite {
        try GrantWrite(
            grant, kind: .entitlementGranted, auditKind: .entitlementGranted, user: user, appBundleID: appBundleID, action: action, now: now)
    }

    /// `grant` (still running) ended at `now` by `action`.
    public static func revoking(
        _ grant: EntitlementGrant, of user: AppUserID, appBundleID: String, by action: AdminAction, now: Date
    ) throws(StorageError) -> GrantWrite {
        var revoked = grant
        revoked.revokedAt = now
        revoked.revokedBy = action.admin
        revoked.revokeReason = action.reason
        return try GrantWrite(revoked, kind: .grantRevoked, auditKind: .grantRevoked, user: user, appBundleID: appBundleID, action: action, now: now)
    }

    private init(
        _ grant: EntitlementGrant, kind: EntitlementGrant.EventKind, auditKind: AuditKind, user: AppUserID, appBundleID: String,
        action: AdminAction, now: Date
    ) throws(StorageError) {
        self.grant = grant
        appUserID = user
        self.appBundleID = appBundleID
        let eventID = grant.eventID(kind)
        event = OutboxEntry.Draft(
            eventID: eventID, appUserID: user, appBundleID: appBundleID, kind: kind.rawValue, occurredAt: now,
            payload: try StorageJSON.encode(grant, what: "grant \(grant.id)"))
        audit = AuditEntry.Draft(
            appUserID: user, appBundleID: appBundleID, at: now, kind: auditKind,
            detail: AuditDetail(originalTransactionIDs: [], eventIDs: [eventID], action: action, grant: grant))
    }
}

public import Foundation
public import PerennialCore

/// Apple's `RESCIND_CONSENT`: a parent or guardian withdrew consent for a child's use of the app
/// (Declared Age Range). It is about the Apple account's app transaction, not a subscription, so
/// it reaches the users who posted that app transaction: each gets a `consentRescinded` webhook
/// event and a timeline entry, and the app's backend decides what the child may still do.
public struct ConsentRescission: Hashable, Sendable, Codable {
    /// The outbox kind and webhook `type`.
    public static let kind = "consentRescinded"

    public var appTransactionID: String
    public var environment: AppStoreEnvironment
    /// Apple's notification: a redelivery has the same, so each user is told once.
    public var notificationUUID: String
    /// When Apple signed the notification.
    public var rescindedAt: Date

    public init(appTransactionID: String, environment: AppStoreEnvironment, notificationUUID: String, rescindedAt: Date) {
        self.appTransactionID = appTransactionID
        self.environment = environment
        self.notificationUUID = notificationUUID
        self.rescindedAt = rescindedAt
    }

    public var eventID: String { "\(Self.kind):\(notificationUUID)" }

    /// The event of `user`, as a back end enqueues it.
    public func event(of user: AppUserID, appBundleID: String) throws(StorageError) -> OutboxEntry.Draft {
        OutboxEntry.Draft(
            eventID: eventID, appUserID: user, appBundleID: appBundleID, kind: Self.kind, occurredAt: rescindedAt,
            payload: try StorageJSON.encode(self, what: "consent rescission \(notificationUUID)"))
    }

    /// The timeline entry of `user`, written with the event (and only when the event is new).
    public func audit(of user: AppUserID, appBundleID: String, at: Date) -> AuditEntry.Draft {
        AuditEntry.Draft(
            appUserID: user, appBundleID: appBundleID, at: at, kind: .consentRescinded,
            detail: AuditDetail(originalTransactionIDs: [], eventIDs: [eventID]))
    }
}

public import Foundation
public import PerennialCore

/// One event waiting to be told to the app's backend (webhooks), written in the same transaction as
/// the state change it reports so that no change is ever lost or told twice.
public struct OutboxEntry: Hashable, Sendable {
    /// What an apply asks to enqueue; the back end adds the row id and the delivery state.
    public struct Draft: Hashable, Sendable {
        /// Deterministic: a re-derived event gets the same id, so it is enqueued once per user.
        public var eventID: String
        public var appUserID: AppUserID
        public var appBundleID: String
        /// An ``PerennialCore/EventKind`` raw value, an ``OwnershipChange/Decision`` raw value, or
        /// an ``PerennialCore/EntitlementGrant/EventKind`` raw value.
        public var kind: String
        public var occurredAt: Date
        /// The event as JSON (a ``PerennialCore/SubscriberEvent``, an ``OwnershipChange`` or a
        /// ``PerennialCore/EntitlementGrant``).
        public var payload: Data

        /// A subscriber event of `user`, as an apply enqueues it.
        public init(_ event: SubscriberEvent, of user: AppUserID, appBundleID: String) throws(StorageError) {
            self.init(
                eventID: event.id, appUserID: user, appBundleID: appBundleID, kind: event.kind.rawValue, occurredAt: event.occurredAt,
                payload: try StorageJSON.encode(event, what: "event \(event.id)"))
        }

        public init(eventID: String, appUserID: AppUserID, appBundleID: String, kind: String, occurredAt: Date, payload: Data) {
            self.eventID = eventID
            self.appUserID = appUserID
            self.appBundleID = appBundleID
            self.kind = kind
            self.occurredAt = occurredAt
            self.payload = payload
        }
    }

    /// Insertion order: delivery follows it.
    public var id: Int64
    public var event: Draft
    public var createdAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var deliveredAt: Date?

    public init(id: Int64, event: Draft, createdAt: Date, attempts: Int, nextAttemptAt: Date?, deliveredAt: Date?) {
        self.id = id
        self.event = event
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.deliveredAt = deliveredAt
    }
}

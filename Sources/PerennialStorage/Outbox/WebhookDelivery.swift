public import Foundation

/// An outbox entry seen by the webhook job: the event plus where its delivery stands.
///
/// Separate from ``OutboxEntry`` (what an apply enqueues) because delivery state grows with the
/// job — leases, accepted endpoints, dead letters — and the apply path never needs to read it.
public struct WebhookDelivery: Hashable, Sendable {
    /// Where a delivery stands, as the admin API filters it.
    public enum State: String, Hashable, Sendable, CaseIterable, Codable {
        /// Waiting for its first or next attempt (or being attempted under a lease).
        case pending
        /// Every endpoint configured at delivery time accepted it.
        case delivered
        /// Attempts ran out; it waits for an operator's redelivery and no longer blocks the
        /// subscriber's later events.
        case dead
    }

    public var entry: OutboxEntry
    /// Endpoints (URL strings) that already answered 2xx, so a retry only resends to the others.
    public var acceptedEndpoints: [String]
    /// Why the latest attempt failed, for the admin API.
    public var lastError: String?
    /// When the delivery was dead-lettered.
    public var deadAt: Date?
    /// The job instance holding the lease, while it holds it.
    public var leaseOwner: String?
    /// When the lease lapses and another instance may claim the entry again.
    public var leaseExpiresAt: Date?

    public init(
        entry: OutboxEntry, acceptedEndpoints: [String] = [], lastError: String? = nil, deadAt: Date? = nil,
        leaseOwner: String? = nil, leaseExpiresAt: Date? = nil
    ) {
        self.entry = entry
        self.acceptedEndpoints = acceptedEndpoints
        self.lastError = lastError
        self.deadAt = deadAt
        self.leaseOwner = leaseOwner
        self.leaseExpiresAt = leaseExpiresAt
    }

    /// Derived from the timestamps, so there is one source of truth in the row.
    public var state: State {
        if entry.deliveredAt != nil { return .delivered }
        if deadAt != nil { return .dead }
        return .pending
    }
}

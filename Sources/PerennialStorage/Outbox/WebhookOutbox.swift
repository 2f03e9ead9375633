public import Foundation

/// The webhook job's view of the outbox: claim due events under a lease, record each attempt's
/// outcome, and let an operator list, redeliver and replay.
///
/// A capability of its own, which ``SubscriberStorage`` is composed of, so delivery can grow
/// (leases, dead letters, per-endpoint progress) without touching the apply path; both back ends
/// implement it and pass the same contract suite.
///
/// Every claim is a lease with an owner and an expiry: several `perennial serve` processes can
/// share one database, each entry is attempted by one of them at a time, an entry whose owner died
/// is claimable again once its lease lapses, and a completion by anyone but the current owner
/// changes nothing (it returns `false`).
public protocol WebhookOutbox: Sendable {
    /// Leases up to `limit` due entries to `owner` until `now + leaseFor`, oldest first.
    ///
    /// Only the oldest undelivered, non-dead entry of each (app, app user) is claimable, so a
    /// subscriber's events are delivered in order; an entry is due when it has no next attempt
    /// time or that time has come, and its lease is free or expired.
    func claimDeliveries(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [WebhookDelivery]

    /// Marks a leased entry delivered (every endpoint accepted it) and releases the lease.
    /// - Returns: false when `owner` no longer holds the lease (nothing changed).
    func markDelivered(id: Int64, owner: String, at: Date) async throws(StorageError) -> Bool

    /// Records a failed attempt: the attempts made so far, when to try again, why it failed and
    /// which endpoints accepted it already; releases the lease.
    /// - Returns: false when `owner` no longer holds the lease (nothing changed).
    func markFailed(
        id: Int64, owner: String, attempts: Int, nextAttemptAt: Date, error: String, acceptedEndpoints: [String]
    ) async throws(StorageError) -> Bool

    /// Gives up on a leased entry after its last attempt: it becomes dead, stops blocking the
    /// subscriber's later events and waits for ``redeliver(id:now:)``.
    /// - Returns: false when `owner` no longer holds the lease (nothing changed).
    func deadLetter(
        id: Int64, owner: String, attempts: Int, error: String, acceptedEndpoints: [String], at: Date
    ) async throws(StorageError) -> Bool

    /// Entries in `state`: pending ones oldest first (delivery order), delivered and dead ones
    /// newest first (what an operator looks at).
    func listDeliveries(state: WebhookDelivery.State, limit: Int) async throws(StorageError) -> [WebhookDelivery]

    /// Puts a dead or delivered entry back to pending, due at `now`, with its attempts and
    /// accepted endpoints reset.
    /// - Returns: false when no such entry exists or it is already pending.
    func redeliver(id: Int64, now: Date) async throws(StorageError) -> Bool

    /// Re-queues delivered entries (of one app or all, of one of its users or everyone; created at
    /// or after `since`, or all) like ``redeliver(id:now:)``: a receiver that lost its data gets
    /// the events again, in order. App user ids are each app's own, so a user is named with an app.
    /// - Returns: how many entries were re-queued.
    func requeueDelivered(appBundleID: String?, appUserID: AppUserID?, since: Date?, now: Date) async throws(StorageError) -> Int
}

public import Foundation

/// The reconciliation job's view of storage: when each subscription must next be compared with
/// Apple, leased to one process at a time, plus what the job needs to ask Apple.
///
/// The schedule is written by every apply (``WritePlan/checks``, one upsert per touched
/// subscription), so the job claims exactly the checks that are due instead of scanning every
/// subscription; the daily sweep (``scheduleSweep(now:interval:)``) is the safety net. Claims are
/// leases with an owner and an expiry, like the webhook outbox's: several `perennial serve`
/// processes can share the work, a dead process's checks come back when its lease lapses, and a
/// completion by anyone but the current owner changes nothing.
public protocol ReconciliationSchedule: Sendable {
    /// Leases up to `limit` checks due at `now` (earliest first) to `owner` until `now + leaseFor`.
    func claimDueChecks(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [ReconciliationCheck]

    /// Ends a successful check: releases the lease and resets the failures. A next check still
    /// ahead of `now` is kept (the apply of Apple's answer set it from the subscription's state);
    /// one already due — the answer changed nothing, or a sweep made it due — is put off to
    /// `notBefore`, so the check is not due again at once. (Putting off an ahead one too would let
    /// a sweep an hour before a renewal delay that renewal's check by the difference.)
    /// - Returns: false when `owner` no longer holds the lease (nothing changed).
    func completeCheck(originalTransactionID: String, owner: String, now: Date, notBefore: Date) async throws(StorageError) -> Bool

    /// Ends a failed check (Apple kept failing, or cannot be asked): releases the lease, makes it
    /// due again at `nextAttemptAt` and, in the same transaction, adds a `reconciliationFailed`
    /// entry (without evidence) to the timeline of the purchase's owner.
    /// - Returns: false when `owner` no longer holds the lease (nothing changed).
    func failCheck(
        originalTransactionID: String, owner: String, attempts: Int, nextAttemptAt: Date, error: String, now: Date
    ) async throws(StorageError) -> Bool

    /// Starts the daily sweep if none ran in the last `interval` (across every process sharing the
    /// database: one singleton row decides): every subscription still within its sweep window
    /// becomes due at `now`.
    /// - Returns: how many checks were made due, or nil when another sweep ran within `interval`.
    func scheduleSweep(now: Date, interval: TimeInterval) async throws(StorageError) -> Int?

    /// The latest receipt evidence that touched the subscription, for asking verifyReceipt when the
    /// app has no Server API keys: the receipt itself (local mode) or the verifyReceipt answer that
    /// carries `latest_receipt`.
    func latestReceipt(appBundleID: String, originalTransactionID: String) async throws(StorageError) -> StoredEvidence?

    /// When the newest V2 notification of the app was received, where backfilling from Apple's
    /// notification history starts; nil when none was ever received.
    func latestNotificationDate(appBundleID: String) async throws(StorageError) -> Date?
}

import Foundation

/// The pending-transaction journal as a pure state machine: it decides, the
/// ``TransactionUploader`` does the I/O (postgres-nio's pattern).
///
/// Life of an entry: ``record(_:appUserID:origin:now:)`` (the caller persists before doing anything
/// else) → ``startUploads(now:limit:excluding:urgent:)`` (in flight, at most once at a time) →
/// ``uploadSucceeded(key:now:)`` (acknowledged; the caller persists, then finishes with the store)
/// or ``uploadFailed(key:reason:now:)`` (pending again after the backoff) → ``finished(key:)``
/// (removed, remembered as delivered). A restored entry has nothing to finish: it is removed once
/// acknowledged and not remembered, so the store handing the same transaction over still gets it
/// finished.
///
/// **Capacity rule.** The journal holds at most `capacity` entries, with one exception: a purchase
/// the user just paid for in this app is always accepted, because refusing it would make the
/// user's payment wait for a relaunch. When full, the journal first evicts entries the server has
/// already acknowledged (only `finish` is left; the store hands them over again and the server
/// treats the repeat as a no-op), then refuses *store updates*. Refusing those loses nothing: an
/// unacknowledged transaction is never finished, so the store keeps offering it, and the SDK asks
/// the store again once the journal has room. No unacknowledged entry is ever dropped. The journal
/// can exceed `capacity` only by purchases made while it is full, which a person makes one at a time.
///
/// **Clock.** Backoff uses the device's wall clock; an entry whose next attempt lies further in the
/// future than the backoff's longest wait (the clock was set back) is treated as due, so a clock
/// change can delay a retry by at most that long.
struct PendingTransactionJournal: Sendable {
    /// What ``record(_:appUserID:origin:now:)`` decided.
    enum RecordResult: Sendable, Equatable {
        /// Written down; persist now, then upload.
        case recorded
        /// The same transaction is already journaled; its upload will answer for both.
        case alreadyPending
        /// The same transaction was delivered and finished recently; nothing to do.
        case alreadyDelivered
        /// The journal is full and the entry is a store update; the store keeps it unfinished.
        case refused(capacity: Int)
    }

    /// What the caller does after the server acknowledged an entry.
    enum AcknowledgedAction: Sendable, Equatable {
        /// Persist, then finish the transaction with the store and call ``finished(key:)``.
        case finish(transactionID: String)
        /// Persist; nothing else (a restored transaction, already finished long ago).
        case forget
    }

    /// How many delivered keys are remembered to absorb a store handing a transaction over again.
    static let deliveredMemory = 512

    let capacity: Int
    let backoff: BackoffPolicy
    private(set) var entries: [String: PendingTransaction]
    /// Entries being uploaded, each mapped to the key of the entry whose request carries it (itself,
    /// or the first entry of a receipt batch).
    private(set) var inFlight: [String: String] = [:]
    private var delivered: [String]
    private var deliveredKeys: Set<String>

    /// A journal continuing from a snapshot (empty on first launch). Nothing is in flight: whatever
    /// was being uploaded when the app died is pending again.
    init(snapshot: JournalSnapshot = JournalSnapshot(), capacity: Int, backoff: BackoffPolicy) {
        self.capacity = max(1, capacity)
        self.backoff = backoff
        self.entries = Dictionary(snapshot.entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.delivered = snapshot.delivered
        self.deliveredKeys = Set(snapshot.delivered)
    }

    /// What to write down.
    var snapshot: JournalSnapshot {
        JournalSnapshot(entries: entries.values.sorted(by: Self.uploadOrder), delivered: delivered)
    }

    /// Entries not yet acknowledged by the server.
    var undeliveredCount: Int {
        entries.values.count { $0.acknowledgedAt == nil }
    }

    /// Entries acknowledged but not yet finished with the store (after a crash between the two).
    var awaitingFinish: [PendingTransaction] {
        entries.values.filter { $0.acknowledgedAt != nil && $0.origin.needsFinish }.sorted(by: Self.uploadOrder)
    }

    /// Writes a transaction down, applying the capacity rule. A restore ignores the delivered memory
    /// on purpose: it re-sends what was delivered, possibly for another app user.
    mutating func record(_ transaction: StoreTransaction, appUserID: String, origin: TransactionOrigin, now: Date) -> RecordResult {
        let key = transaction.journalKey
        if var pending = entries[key] {
            // The store hands over what a restore already journaled: it is unfinished after all
            // (currentEntitlements holds unfinished transactions too), so it is finished once delivered.
            if origin.needsFinish, !pending.origin.needsFinish {
                pending.origin = origin
                entries[key] = pending
            }
            return .alreadyPending
        }
        if origin != .restore, deliveredKeys.contains(key) { return .alreadyDelivered }
        if entries.count >= capacity { evictAcknowledged() }
        if entries.count >= capacity, origin != .purchase { return .refused(capacity: capacity) }
        entries[key] = PendingTransaction(transaction: transaction, appUserID: appUserID, origin: origin, recordedAt: now)
        if case .appReceipt(let receipt) = transaction.evidence { coalesce(receipt, appUserID: appUserID) }
        return .recorded
    }

    /// **Receipts coalesce.** StoreKit 1 proves a transaction with the whole app receipt, and a
    /// later receipt lists everything an earlier one did. So every waiting receipt entry of the user
    /// takes the newest receipt, and ``startUploads(now:limit:excluding:urgent:)`` sends entries
    /// sharing a receipt in one request: a launch flood of forty transactions is one upload.
    private mutating func coalesce(_ receipt: String, appUserID: String) {
        for (key, entry) in entries
        where entry.appUserID == appUserID && entry.acknowledgedAt == nil && inFlight[key] == nil {
            guard case .appReceipt(let old) = entry.transaction.evidence, old != receipt else { continue }
            entries[key]?.transaction.evidence = .appReceipt(receipt)
        }
    }

    /// Picks the requests to send now, marks their entries in flight and returns them: due entries
    /// not already in flight, purchases first, then oldest first, keeping at most `limit` requests in
    /// flight in total. An entry proven by a receipt brings along every other waiting entry of the
    /// same user with the same receipt (one request answers for all). `excluding` keeps one drain
    /// from retrying an entry it just tried; `urgent` entries ignore their backoff (a purchase the
    /// user is waiting for).
    mutating func startUploads(now: Date, limit: Int, excluding: Set<String> = [], urgent: Set<String> = []) -> [[PendingTransaction]] {
        var free = limit - Set(inFlight.values).count
        var batches: [[PendingTransaction]] = []
        let candidates = entries.values
            .filter { entry in
                entry.acknowledgedAt == nil && inFlight[entry.key] == nil && !excluding.contains(entry.key)
                    && (urgent.contains(entry.key) || isDue(entry, now: now))
            }
            .sorted(by: Self.uploadOrder)
        for leader in candidates where free > 0 && inFlight[leader.key] == nil {
            var batch = [leader]
            if case .appReceipt = leader.transaction.evidence {
                batch += entries.values
                    .filter { entry in
                        entry.key != leader.key && entry.acknowledgedAt == nil && inFlight[entry.key] == nil
                            && entry.appUserID == leader.appUserID && entry.transaction.evidence == leader.transaction.evidence
                    }
                    .sorted(by: Self.uploadOrder)
            }
            for entry in batch { inFlight[entry.key] = leader.key }
            batches.append(batch)
            free -= 1
        }
        return batches
    }

    /// Whether a drain that already tried `excluding` still has something to wait for: an entry it
    /// would upload (due or `urgent`, not yet tried by it) or one in flight in another drain.
    func hasWork(now: Date, excluding: Set<String>, urgent: Set<String>) -> Bool {
        entries.values.contains { entry in
            entry.acknowledgedAt == nil && !excluding.contains(entry.key)
                && (inFlight[entry.key] != nil || urgent.contains(entry.key) || isDue(entry, now: now))
        }
    }

    /// The server acknowledged the entry.
    mutating func uploadSucceeded(key: String, now: Date) -> AcknowledgedAction {
        inFlight[key] = nil
        guard var entry = entries[key] else { return .forget }
        guard entry.origin.needsFinish else {
            // Not remembered as delivered: only a store's finish makes a transaction done, and if
            // the store hands this one over, it is uploaded again (a no-op for the server) and finished.
            entries[key] = nil
            return .forget
        }
        entry.acknowledgedAt = now
        entry.lastError = nil
        entries[key] = entry
        return .finish(transactionID: entry.transaction.transactionID)
    }

    /// The upload failed; the entry waits for its backoff. Returns when it becomes due again.
    @discardableResult
    mutating func uploadFailed(key: String, reason: String, now: Date) -> Date? {
        inFlight[key] = nil
        guard var entry = entries[key] else { return nil }
        entry.failures += 1
        entry.lastError = reason
        entry.nextAttemptAt = now.addingTimeInterval(backoff.delay(afterFailures: entry.failures))
        entries[key] = entry
        return entry.nextAttemptAt
    }

    /// The store was told the transaction is finished (or it never needed telling): the entry is
    /// removed and its key remembered as delivered.
    mutating func finished(key: String) {
        entries[key] = nil
        inFlight[key] = nil
        guard deliveredKeys.insert(key).inserted else { return }
        delivered.append(key)
        if delivered.count > Self.deliveredMemory {
            deliveredKeys.remove(delivered.removeFirst())
        }
    }

    /// When the earliest waiting entry becomes due (clamped to the backoff's longest wait), or nil
    /// when nothing waits.
    func nextAttemptDate(now: Date) -> Date? {
        entries.values
            .filter { $0.acknowledgedAt == nil && inFlight[$0.key] == nil }
            .map { min($0.nextAttemptAt, now.addingTimeInterval(backoff.maximumDelay)) }
            .min()
    }

    private func isDue(_ entry: PendingTransaction, now: Date) -> Bool {
        let wait = entry.nextAttemptAt.timeIntervalSince(now)
        return wait <= 0 || wait > backoff.maximumDelay
    }

    /// Drops acknowledged entries, oldest first, until there is room.
    private mutating func evictAcknowledged() {
        let evictable = entries.values
            .filter { $0.acknowledgedAt != nil && inFlight[$0.key] == nil }
            .sorted(by: Self.uploadOrder)
        for entry in evictable where entries.count >= capacity {
            entries[entry.key] = nil
        }
    }

    /// Purchases first (a user is waiting), then oldest first; the key breaks ties.
    private static func uploadOrder(_ lhs: PendingTransaction, _ rhs: PendingTransaction) -> Bool {
        let lhsRank = lhs.origin == .purchase ? 0 : 1
        let rhsRank = rhs.origin == .purchase ? 0 : 1
        if lhsRank != rhsRank { return lhsRank < rhsRank }
        if lhs.recordedAt != rhs.recordedAt { return lhs.recordedAt < rhs.recordedAt }
        return lhs.key < rhs.key
    }
}

public import Foundation
import PerennialCore

/// Apple's notification service as a state machine: notifications go in with the instant they are
/// emitted, the driver asks which POSTs are due and reports each answer, and the queue schedules
/// retries, injects faults and keeps the history. It performs no I/O and reads no clock.
///
/// Kept apart from the HTTP transport (postgres-nio style) so the retry schedule, send-once mode
/// and every fault are tested synchronously, and so a seed replays the same misbehaviour.
public struct NotificationDeliveryQueue: Sendable {
    /// Where each format goes; a format without a URL is not delivered.
    public var targets: DeliveryTargets
    /// When failed attempts are retried (or not, in send-once mode).
    public var schedule: RetrySchedule
    /// Faults applied to notifications enqueued from now on.
    public var faults: DeliveryFaults
    private var generator: SeededRandomNumberGenerator
    private var entries: [Entry] = []
    private var scheduled: [Scheduled] = []
    private var inFlight: [Int: Scheduled] = [:]
    private var nextID = 0

    /// What the queue knows of one notification.
    private struct Entry: Sendable {
        let notification: WireNotification
        let firstSendDate: Date
        var attempts: [DeliveryAttempt]
        let dropped: Bool
    }

    /// One POST waiting for its time; `id` also orders deliveries due at the same instant.
    private struct Scheduled: Sendable {
        let id: Int
        let entry: Int
        let version: NotificationVersion
        let url: URL
        /// Position in Apple's retry chain (1 = first attempt); duplicates keep the original's.
        let chainAttempt: Int
        let due: Date
        let isDuplicate: Bool
    }

    /// An empty queue; `seed` drives the fault probabilities (separately from the store's own
    /// generator, so turning faults on does not change which renewals fail).
    public init(targets: DeliveryTargets, schedule: RetrySchedule, faults: DeliveryFaults = .none, seed: UInt64) {
        self.targets = targets
        self.schedule = schedule
        self.faults = faults
        self.generator = SeededRandomNumberGenerator(seed: seed ^ 0x6E6F_7469_6679_2121)
    }

    /// Queues the notifications one step produced. Each is first due at its own `signedDate` (or
    /// `instant`, if later) plus the fault delay; with reordering, the whole batch is held until
    /// its last notification is due and then sent newest first.
    public mutating func enqueue(_ notifications: [WireNotification], at instant: Date) {
        guard !notifications.isEmpty else { return }
        let dueDates = notifications.map { max(instant, $0.intent.date).addingTimeInterval(max(0, faults.delay)) }
        let heldUntil = dueDates.max() ?? instant
        let order = faults.reorder ? Array(notifications.indices.reversed()) : Array(notifications.indices)
        // History lists notifications in emission order, whatever order they are sent in.
        let firstEntry = entries.count
        for (index, notification) in notifications.enumerated() {
            let due = faults.reorder ? heldUntil : dueDates[index]
            entries.append(Entry(notification: notification, firstSendDate: due, attempts: [], dropped: decideDrop()))
        }
        for index in order {
            let entryIndex = firstEntry + index
            let entry = entries[entryIndex]
            let versions = versions(of: entry.notification)
            if entry.dropped {
                entries[entryIndex].attempts = versions.map { version, _ in
                    attempt(of: entry, version: version, number: 1, at: entry.firstSendDate, outcome: .dropped)
                }
                continue
            }
            let duplicate = faults.duplicateProbability > 0
                && Double.random(in: 0..<1, using: &generator) < faults.duplicateProbability
            for (version, url) in versions {
                schedule(entry: entryIndex, version: version, url: url, chainAttempt: 1, due: entry.firstSendDate, duplicate: false)
                if duplicate {
                    schedule(entry: entryIndex, version: version, url: url, chainAttempt: 1, due: entry.firstSendDate, duplicate: true)
                }
            }
        }
    }

    /// When the next POST is due; nil when nothing is waiting.
    public var nextDueDate: Date? { scheduled.map(\.due).min() }

    /// The POSTs due at the earliest waiting instant, if that is not after `instant`, in send
    /// order. The driver performs them and reports each with ``record(_:outcome:)`` before asking
    /// again, so a retry due before later deliveries is sent before them.
    public mutating func takeNext(notAfter instant: Date) -> [DeliveryRequest] {
        guard let due = nextDueDate, due <= instant else { return [] }
        let batch = scheduled.filter { $0.due == due }.sorted { $0.id < $1.id }
        scheduled.removeAll { $0.due == due }
        var numbers: [String: Int] = [:]
        return batch.map { item in
            inFlight[item.id] = item
            let entry = entries[item.entry]
            let key = "\(item.entry)/\(item.version.rawValue)"
            let number = (numbers[key] ?? entry.attempts.count { $0.version == item.version }) + 1
            numbers[key] = number
            return DeliveryRequest(
                id: item.id, notification: entry.notification, version: item.version, url: item.url, attempt: number,
                due: item.due, isDuplicate: item.isDuplicate)
        }
    }

    /// Records the answer to `request` and schedules the next attempt of Apple's schedule when
    /// it failed; returns the attempt as history shows it. A request the queue did not hand out
    /// (or already recorded) is ignored and returns nil.
    @discardableResult
    public mutating func record(_ request: DeliveryRequest, outcome: DeliveryOutcome) -> DeliveryAttempt? {
        guard let item = inFlight.removeValue(forKey: request.id) else { return nil }
        let made = attempt(of: entries[item.entry], version: item.version, number: request.attempt, at: item.due, outcome: outcome)
        entries[item.entry].attempts.append(made)
        if !outcome.isSuccess, !item.isDuplicate,
            let delay = schedule.delay(afterAttempt: item.chainAttempt, version: item.version)
        {
            schedule(
                entry: item.entry, version: item.version, url: item.url, chainAttempt: item.chainAttempt + 1,
                due: item.due.addingTimeInterval(delay), duplicate: false)
        }
        return made
    }

    /// Every notification enqueued so far, dropped ones included, in emission order.
    public var history: [NotificationRecord] {
        entries.map {
            NotificationRecord(notification: $0.notification, firstSendDate: $0.firstSendDate, attempts: $0.attempts, dropped: $0.dropped)
        }
    }

    /// The history record of one notification.
    public func record(notificationUUID: String) -> NotificationRecord? {
        history.last { $0.notification.notificationUUID == notificationUUID }
    }

    /// `dropNext` wins over the probability, and the probability is only drawn when set, so a
    /// run without drop faults draws nothing.
    private mutating func decideDrop() -> Bool {
        if faults.dropNext > 0 {
            faults.dropNext -= 1
            return true
        }
        return faults.dropProbability > 0 && Double.random(in: 0..<1, using: &generator) < faults.dropProbability
    }

    /// The formats this notification is sent in: V2 when a V2 URL is set, V1 when a V1 URL is set
    /// and V1 has an equivalent.
    private func versions(of notification: WireNotification) -> [(NotificationVersion, URL)] {
        var versions: [(NotificationVersion, URL)] = []
        if let url = targets.v2 { versions.append((.v2, url)) }
        if let url = targets.v1, notification.v1 != nil { versions.append((.v1, url)) }
        return versions
    }

    private mutating func schedule(entry: Int, version: NotificationVersion, url: URL, chainAttempt: Int, due: Date, duplicate: Bool) {
        scheduled.append(
            Scheduled(id: nextID, entry: entry, version: version, url: url, chainAttempt: chainAttempt, due: due, isDuplicate: duplicate))
        nextID += 1
    }

    private func attempt(of entry: Entry, version: NotificationVersion, number: Int, at date: Date, outcome: DeliveryOutcome) -> DeliveryAttempt {
        DeliveryAttempt(
            notificationUUID: entry.notification.notificationUUID, version: version, type: entry.notification.typeName,
            subtype: entry.notification.subtypeName, attempt: number, at: date, outcome: outcome)
    }
}

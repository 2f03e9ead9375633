import Foundation

/// The `renewal` events the load tool's webhook receiver got, each with the instant it first
/// arrived, so the runner can tell whether delivery kept up with ingestion.
final class WebhookTally: @unchecked Sendable {
    private let lock = NSLock()
    private var firstArrivals: [String: ContinuousClock.Instant] = [:]
    private var repeats = 0

    /// Notes that event `eventID` arrived at `instant`; a redelivery counts as a repeat.
    func record(eventID: String, at instant: ContinuousClock.Instant) {
        lock.withLock {
            if firstArrivals[eventID] == nil {
                firstArrivals[eventID] = instant
            } else {
                repeats += 1
            }
        }
    }

    /// How many distinct events have arrived.
    var count: Int { lock.withLock { firstArrivals.count } }

    /// The first arrival of every distinct event, earliest first, and the number of redeliveries.
    func arrivals() -> (instants: [ContinuousClock.Instant], repeats: Int) {
        lock.withLock { (firstArrivals.values.sorted(), repeats) }
    }
}

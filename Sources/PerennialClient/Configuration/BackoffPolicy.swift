public import Foundation

/// How long an upload that failed waits before its next attempt.
///
/// Exponential so a server outage is not hammered by every device at once, capped so a purchase
/// made during a long outage is still delivered soon after the server returns. Deterministic (no
/// jitter): devices already spread out naturally because their failures started at different times,
/// and a deterministic schedule keeps the journal's state machine testable.
public struct BackoffPolicy: Sendable, Hashable, Codable {
    /// The wait after the first failure.
    public var initialDelay: TimeInterval
    /// The factor applied for each further failure.
    public var multiplier: Double
    /// The longest wait; also the tolerance for a device clock moved backwards (see
    /// ``PendingTransactionJournal``), so an entry never waits much longer than this.
    public var maximumDelay: TimeInterval

    /// A policy; values are clamped so that a misconfiguration cannot stop retries altogether.
    public init(initialDelay: TimeInterval = 2, multiplier: Double = 2, maximumDelay: TimeInterval = 300) {
        self.initialDelay = max(0.001, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maximumDelay = max(self.initialDelay, maximumDelay)
    }

    /// The wait after `failures` consecutive failed attempts (1 for the first failure).
    public func delay(afterFailures failures: Int) -> TimeInterval {
        guard failures > 0 else { return 0 }
        var delay = initialDelay
        for _ in 1..<failures {
            delay *= multiplier
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}

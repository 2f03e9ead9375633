public import Foundation

/// A rate limit on calls to Apple: `capacity` calls at once, refilled at `ratePerSecond`.
///
/// A value with no clock of its own: the caller passes `now` and learns when the next call may go,
/// so the reconciliation worker can sleep exactly that long and tests need no timers.
public struct TokenBucket: Hashable, Sendable {
    public let capacity: Double
    public let ratePerSecond: Double
    private var tokens: Double
    private var updatedAt: Date

    /// A full bucket at `start`.
    public init(capacity: Double, ratePerSecond: Double, start: Date) {
        self.capacity = capacity
        self.ratePerSecond = ratePerSecond
        self.tokens = capacity
        self.updatedAt = start
    }

    /// Takes one token if there is one at `now` and returns nil; otherwise takes nothing and
    /// returns the instant a token will be available.
    public mutating func take(at now: Date) -> Date? {
        refill(to: now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return now.addingTimeInterval((1 - tokens) / ratePerSecond)
    }

    /// Whether the bucket would be full at `now`: one at rest, as good as a new one.
    public func isFull(at now: Date) -> Bool {
        tokens + max(0, now.timeIntervalSince(updatedAt)) * ratePerSecond >= capacity
    }

    private mutating func refill(to now: Date) {
        guard now > updatedAt else { return }
        tokens = min(capacity, tokens + now.timeIntervalSince(updatedAt) * ratePerSecond)
        updatedAt = now
    }
}

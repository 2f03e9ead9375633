public import Foundation

/// A clock that moves only when told to, so a scenario that spans a year of renewals runs in
/// microseconds and produces the same instants on every run.
///
/// A class (shared by the driver and the test that advances it) guarded by a lock, so it can be
/// handed across concurrency domains.
public final class VirtualClock: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// A clock standing at `start`.
    public init(start: Date) {
        current = start
    }

    public var now: Date {
        lock.withLock { current }
    }

    /// Moves the clock forward by `interval` seconds and returns the new instant; a negative
    /// interval is ignored because a simulated store never travels back in time.
    @discardableResult
    public func advance(by interval: TimeInterval) -> Date {
        lock.withLock {
            current = current.addingTimeInterval(max(0, interval))
            return current
        }
    }

    /// Moves the clock to `instant` if that is later than now, and returns the clock's instant.
    @discardableResult
    public func advance(to instant: Date) -> Date {
        lock.withLock {
            current = max(current, instant)
            return current
        }
    }
}

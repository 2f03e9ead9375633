import Foundation
@testable import PerennialClient

/// A device whose wall clock and monotonic clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: the vars are only touched under `lock`.
    private let lock = NSLock()
    private var wall: Date
    private var monotonic: TimeInterval
    private var boots = 1

    init(now: Date = Date(timeIntervalSince1970: 1_800_000_000), uptime: TimeInterval = 1_000) {
        self.wall = now
        self.monotonic = uptime
    }

    /// Time passes: both clocks move.
    func advance(by seconds: TimeInterval) {
        lock.withLock {
            wall += seconds
            monotonic += seconds
        }
    }

    /// The user changes the date in Settings: only the wall clock moves.
    func setWallClock(by offset: TimeInterval) {
        lock.withLock { wall += offset }
    }

    /// The device reboots: the monotonic clock restarts, under a new boot id.
    func reboot(uptime: TimeInterval = 10) {
        lock.withLock {
            monotonic = uptime
            boots += 1
        }
    }

    var now: Date { lock.withLock { wall } }

    var clock: PerennialClock {
        PerennialClock(
            now: { self.lock.withLock { self.wall } }, uptime: { self.lock.withLock { self.monotonic } },
            boot: { self.lock.withLock { "boot \(self.boots)" } })
    }
}

public import Foundation

/// The device's two clocks, injected so tests (and paranoid apps) control time.
///
/// The wall clock is what the user can change in Settings; the monotonic clock counts seconds since
/// boot and cannot be set. Entitlements are judged on the server's time advanced by the monotonic
/// clock, so moving the wall clock forward or back changes nothing (see ``EntitlementCache``).
public struct PerennialClock: Sendable {
    /// The device's wall-clock time.
    public var now: @Sendable () -> Date
    /// Seconds since boot; never goes back while the device is up.
    public var uptime: @Sendable () -> TimeInterval

    /// A clock made of the given functions.
    public init(now: @escaping @Sendable () -> Date, uptime: @escaping @Sendable () -> TimeInterval) {
        self.now = now
        self.uptime = uptime
    }

    /// The real clocks: `Date()` and `ProcessInfo.systemUptime`.
    public static let system = PerennialClock(
        now: { Date() },
        uptime: { ProcessInfo.processInfo.systemUptime }
    )
}

public import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The device's clocks, injected so tests (and paranoid apps) control time.
///
/// The wall clock is what the user can change in Settings; the monotonic clock counts seconds since
/// boot and cannot be set. Entitlements are judged on the server's time advanced by the monotonic
/// clock, so moving the wall clock forward or back changes nothing (see ``EntitlementCache``).
/// The monotonic clock must count the time the device sleeps (a phone sleeps most of a day, and
/// an entitlement's end does not wait for it to wake), and restarts at each boot, so a reading is
/// compared only with one of the same boot.
public struct PerennialClock: Sendable {
    /// The device's wall-clock time.
    public var now: @Sendable () -> Date
    /// Seconds since boot, sleep included; never goes back while the device is up.
    public var uptime: @Sendable () -> TimeInterval
    /// What identifies the current boot, nil when the platform does not say: two uptimes of
    /// different boots say nothing about the time between them, even when the later is larger.
    public var boot: @Sendable () -> String?

    /// A clock made of the given functions.
    public init(now: @escaping @Sendable () -> Date, uptime: @escaping @Sendable () -> TimeInterval, boot: @escaping @Sendable () -> String? = { nil }) {
        self.now = now
        self.uptime = uptime
        self.boot = boot
    }

    /// The real clocks: `Date()`, the monotonic clock that counts sleep (`CLOCK_MONOTONIC` on
    /// Apple's systems, `CLOCK_BOOTTIME` on Linux; `ProcessInfo.systemUptime` counts only the
    /// time awake), and the system's identifier of the boot.
    public static let system = PerennialClock(now: { Date() }, uptime: { Self.systemUptime() }, boot: { Self.systemBoot })

    private static func systemUptime() -> TimeInterval {
        #if canImport(Darwin)
        return TimeInterval(clock_gettime_nsec_np(CLOCK_MONOTONIC)) / 1e9
        #else
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9
        #endif
    }

    /// Read once: it does not change while the process lives.
    private static let systemBoot: String? = {
        #if canImport(Darwin)
        var size = 0
        guard sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var bytes = [CChar](repeating: 0, count: size)
        guard sysctlbyname("kern.bootsessionuuid", &bytes, &size, nil, 0) == 0 else { return nil }
        return String(cString: bytes)
        #else
        return (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #endif
    }()
}

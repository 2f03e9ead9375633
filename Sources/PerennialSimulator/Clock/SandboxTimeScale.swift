public import Foundation
public import PerennialCore

/// How long catalog periods and day-counted windows (billing grace period, billing retry, renewal
/// date extensions) last in wall-clock time.
///
/// `production` keeps real calendar lengths; `sandbox` compresses them the way Apple's sandbox
/// does, so the simulator reproduces what a tester sees (a month of 300 s at the default rate).
/// Months scale linearly from the rate's monthly figure — which matches every entry of Apple's
/// table — while weeks use Apple's published figure where there is one, because Apple's week is
/// not a quarter of its month (3 minutes, not 70 seconds, at the default rate).
public enum SandboxTimeScale: Hashable, Sendable {
    /// Real time: calendar months and years in UTC, days of 86 400 s.
    case production
    /// Apple's accelerated sandbox time at a tester's renewal rate.
    case sandbox(SandboxRenewalRate)

    /// The end of a period of `duration` that starts at `start`.
    public func end(of duration: SubscriptionDuration, startingAt start: Date) -> Date {
        switch self {
        case .production:
            return duration.end(startingAt: start)
        case .sandbox(let rate):
            return start.addingTimeInterval(Self.sandboxSeconds(of: duration, rate: rate))
        }
    }

    /// The wall-clock length of a window Apple counts in days (16 days of grace, 60 days of
    /// billing retry, a 30-day renewal extension): a 30-day month scaled like a catalog month.
    public func interval(days: Int) -> TimeInterval {
        switch self {
        case .production:
            return TimeInterval(days) * 86_400
        case .sandbox(let rate):
            return TimeInterval(days) * TimeInterval(rate.secondsPerMonth) / 30
        }
    }

    private static func sandboxSeconds(of duration: SubscriptionDuration, rate: SandboxRenewalRate) -> TimeInterval {
        let month = TimeInterval(rate.secondsPerMonth)
        if duration.months > 0 { return TimeInterval(duration.months) * month }
        if duration.days % 7 == 0, let week = rate.publishedSecondsPerWeek {
            return TimeInterval(duration.days / 7 * week)
        }
        return TimeInterval(duration.days) * month / 30
    }
}

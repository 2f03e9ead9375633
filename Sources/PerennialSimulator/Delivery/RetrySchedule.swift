public import Foundation

/// Apple's notification retry schedule, in hours after the previous attempt, compressed with the
/// simulator's time scale like every other period.
///
/// Apple retries a V2 notification five times (1, 12, 24, 48 and 72 hours after the previous
/// attempt) and a V1 notification three times (6, 24 and 48 hours) when the server does not answer
/// 2xx; its sandbox sends once. A server's idempotency and catch-up logic is only tested if the
/// simulator repeats this, so the hours are Apple's and only their length is scaled.
public struct RetrySchedule: Hashable, Sendable {
    /// Hours between attempt n and n+1 for V2 notifications.
    public static let v2Hours: [Int] = [1, 12, 24, 48, 72]
    /// Hours between attempt n and n+1 for V1 notifications.
    public static let v1Hours: [Int] = [6, 24, 48]

    /// How long an hour lasts: 1/24 of a scaled day.
    public let timeScale: SandboxTimeScale
    /// False sends every notification once, as Apple's real sandbox does.
    public let retries: Bool

    /// A schedule at `timeScale`; `retries: false` is send-once mode.
    public init(timeScale: SandboxTimeScale, retries: Bool = true) {
        self.timeScale = timeScale
        self.retries = retries
    }

    /// The wait after failed attempt number `attempt` (1-based) of a `version` notification, or nil
    /// when Apple gives up (or never retries, in send-once mode).
    public func delay(afterAttempt attempt: Int, version: NotificationVersion) -> TimeInterval? {
        guard retries, attempt >= 1 else { return nil }
        let hours = version == .v2 ? Self.v2Hours : Self.v1Hours
        guard attempt <= hours.count else { return nil }
        return TimeInterval(hours[attempt - 1]) * timeScale.interval(days: 1) / 24
    }
}

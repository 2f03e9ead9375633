public import Foundation

/// When to try a failed webhook delivery again, and when to give up.
///
/// Exponential backoff with "equal jitter": the n-th retry waits between half and all of
/// `min(base × 2ⁿ⁻¹, cap)`, so receivers coming back from an outage are not hit by every
/// server at the same instant, yet no wait is shorter than half the schedule. Pure: randomness is
/// passed in, so tests and replays are deterministic.
public struct WebhookRetryPolicy: Hashable, Sendable, Codable {
    /// Wait before the first retry, before jitter.
    public var baseDelay: TimeInterval
    /// Longest wait between two attempts, before jitter.
    public var maximumDelay: TimeInterval
    /// Attempts (the first included) after which the delivery is dead-lettered.
    public var maximumAttempts: Int

    /// Defaults spread 16 attempts over 19 to 39 hours (a day on average; the jitter decides):
    /// 30 s, 1 min, 2 min … capped at 6 h, so a receiver down overnight loses nothing.
    public init(baseDelay: TimeInterval = 30, maximumDelay: TimeInterval = 6 * 3600, maximumAttempts: Int = 16) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// What to do after attempt number `attempt` (1 = first) failed at `failedAt`.
    public func decision(afterFailedAttempt attempt: Int, at failedAt: Date, using random: inout some RandomNumberGenerator) -> WebhookRetryDecision {
        guard attempt < maximumAttempts else { return .deadLetter }
        let exponent = Double(min(attempt - 1, 62))
        let ceiling = min(baseDelay * pow(2, exponent), maximumDelay)
        let wait = ceiling / 2 + Double.random(in: 0...(ceiling / 2), using: &random)
        return .retry(at: failedAt.addingTimeInterval(wait))
    }
}

/// The outcome of ``WebhookRetryPolicy/decision(afterFailedAttempt:at:using:)``.
public enum WebhookRetryDecision: Hashable, Sendable {
    case retry(at: Date)
    /// No more attempts; the delivery waits in the dead-letter state for a replay from the admin API.
    case deadLetter
}

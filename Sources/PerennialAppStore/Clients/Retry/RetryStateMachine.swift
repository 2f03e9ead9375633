/// Decides, attempt by attempt, whether an operation is retried and how long to wait.
///
/// A value type that performs no I/O (in the manner of postgres-nio's state machines): the client
/// reports each failure with its ``RetryDisposition`` and executes the returned ``RetryAction``.
/// Randomness comes in through the caller's generator, so a seeded generator makes the waits
/// reproducible in tests.
public struct RetryStateMachine<Failure: Error & Sendable>: Sendable {
    /// The policy this machine enforces.
    public let policy: RetryPolicy
    /// Attempts that have failed so far.
    public private(set) var failedAttempts = 0

    /// Starts an operation under `policy`.
    public init(policy: RetryPolicy) {
        self.policy = policy
    }

    /// Records a failed attempt and decides what happens next.
    ///
    /// Permanent failures give up at once; transient ones retry while attempts remain, after a
    /// uniformly random wait in `0...backoffCeiling` (full jitter). A server-given delay is honoured
    /// as a lower bound when it is within `policy.maxRetryAfter`, and ends the operation otherwise.
    public mutating func attemptFailed(
        _ failure: Failure,
        disposition: RetryDisposition,
        using random: inout some RandomNumberGenerator
    ) -> RetryAction<Failure> {
        failedAttempts += 1
        let serverDelay: Duration?
        switch disposition {
        case .permanent:
            return .giveUp(failure)
        case .transient:
            serverDelay = nil
        case .transientAfter(let delay):
            if delay > policy.maxRetryAfter { return .giveUp(failure) }
            serverDelay = delay
        }
        guard failedAttempts < policy.maxAttempts else {
            return .exhausted(last: failure, attempts: failedAttempts)
        }
        let jittered = Self.uniform(upTo: policy.backoffCeiling(afterFailedAttempts: failedAttempts), using: &random)
        return .retry(after: max(jittered, serverDelay ?? .zero))
    }

    /// A uniformly random duration in `0...ceiling`, at nanosecond resolution.
    private static func uniform(upTo ceiling: Duration, using random: inout some RandomNumberGenerator) -> Duration {
        let nanoseconds = ceiling.components.seconds * 1_000_000_000 + ceiling.components.attoseconds / 1_000_000_000
        guard nanoseconds > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...nanoseconds, using: &random))
    }
}

/// How persistently a client retries a transient failure.
///
/// Apple asks callers to "try again" on several verifyReceipt statuses and App Store Server API
/// errors, but an unbounded loop would hammer a struggling service and stall our own workers. The
/// policy bounds both the number of attempts and each wait, and spreads retries with full jitter
/// (a uniform wait between zero and the exponential ceiling) so many workers that failed together
/// do not retry together.
public struct RetryPolicy: Sendable, Equatable {
    /// The most attempts one operation may make, the first one included (at least 1).
    public var maxAttempts: Int
    /// The ceiling of the wait after the first failure; it doubles with each further failure.
    public var baseDelay: Duration
    /// The largest ceiling the doubling may reach.
    public var maxDelay: Duration
    /// The longest server-requested wait (`Retry-After`) the client agrees to honour; a longer one
    /// ends the operation so the caller can reschedule it instead of holding a worker.
    public var maxRetryAfter: Duration

    /// Creates a policy; `maxAttempts` below 1 is treated as 1.
    public init(maxAttempts: Int, baseDelay: Duration, maxDelay: Duration, maxRetryAfter: Duration) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// Four attempts, waits of up to 0.5 s, 1 s, 2 s, capped at 10 s, honouring `Retry-After` up to
    /// one minute: enough to ride out Apple's brief hiccups without stalling a request handler.
    public static let standard = RetryPolicy(
        maxAttempts: 4, baseDelay: .milliseconds(500), maxDelay: .seconds(10), maxRetryAfter: .seconds(60))

    /// A single attempt: failures surface immediately.
    public static let singleAttempt = RetryPolicy(maxAttempts: 1, baseDelay: .zero, maxDelay: .zero, maxRetryAfter: .zero)

    /// The ceiling of the jittered wait after `failedAttempts` failures (1 for the first):
    /// `min(maxDelay, baseDelay · 2^(failedAttempts − 1))`.
    public func backoffCeiling(afterFailedAttempts failedAttempts: Int) -> Duration {
        let exponent = max(0, failedAttempts - 1)
        var ceiling = baseDelay
        for _ in 0..<exponent {
            if ceiling >= maxDelay { break }
            ceiling = ceiling * 2
        }
        return min(ceiling, maxDelay)
    }
}

public import Foundation

/// How persistently a failed operation is tried again: a call retried in place (a client asking
/// Apple) or a job rescheduled in the database (a webhook delivery, a refund-request answer). The
/// one policy of every retrying part of Perennial.
///
/// Apple asks callers to "try again" on several verifyReceipt statuses and App Store Server API
/// errors, and a webhook receiver may be down for a night, but an unbounded loop would hammer a
/// struggling service and stall our own workers. The policy bounds both the number of attempts and
/// each wait, and spreads retries with jitter so many workers that failed together do not retry
/// together. Pure: randomness is passed in, so tests and replays are deterministic.
public struct RetryPolicy: Sendable, Equatable {
    /// How a wait is drawn below its exponential ceiling.
    public enum Jitter: Sendable, Equatable {
        /// Anywhere from zero to the ceiling: calls retried in place by many workers that failed
        /// together spread the most.
        case full
        /// From half the ceiling to all of it: jobs rescheduled over hours, whose waits must not
        /// fall far below the schedule operators read in the docs.
        case equal
    }

    /// The most attempts one operation may make, the first one included (at least 1).
    public var maxAttempts: Int
    /// The ceiling of the wait after the first failure; it doubles with each further failure.
    public var baseDelay: Duration
    /// The largest ceiling the doubling may reach.
    public var maxDelay: Duration
    /// The longest server-requested wait (`Retry-After`) the client agrees to honour; a longer one
    /// ends the operation so the caller can reschedule it instead of holding a worker.
    public var maxRetryAfter: Duration
    public var jitter: Jitter

    /// Creates a policy; `maxAttempts` below 1 is treated as 1.
    public init(maxAttempts: Int, baseDelay: Duration, maxDelay: Duration, maxRetryAfter: Duration = .zero, jitter: Jitter = .full) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.jitter = jitter
    }

    /// Four attempts, waits of up to 0.5 s, 1 s, 2 s, capped at 10 s, honouring `Retry-After` up to
    /// one minute: enough to ride out Apple's brief hiccups without stalling a request handler.
    public static let standard = RetryPolicy(
        maxAttempts: 4, baseDelay: .milliseconds(500), maxDelay: .seconds(10), maxRetryAfter: .seconds(60))

    /// A single attempt: failures surface immediately.
    public static let singleAttempt = RetryPolicy(maxAttempts: 1, baseDelay: .zero, maxDelay: .zero, maxRetryAfter: .zero)

    /// Webhook deliveries: 16 attempts over 19 to 39 hours (a day on average; the jitter decides),
    /// 30 s, 1 min, 2 min … capped at 6 h, so a receiver down overnight loses nothing.
    public static let webhookDelivery = RetryPolicy(maxAttempts: 16, baseDelay: .seconds(30), maxDelay: .seconds(6 * 3600), jitter: .equal)

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

    /// The wait after `failedAttempts` failures, drawn below the ceiling as ``jitter`` says.
    public func wait(afterFailedAttempts failedAttempts: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let ceiling = backoffCeiling(afterFailedAttempts: failedAttempts)
        switch jitter {
        case .full: return Self.uniform(upTo: ceiling, using: &random)
        case .equal: return ceiling / 2 + Self.uniform(upTo: ceiling / 2, using: &random)
        }
    }

    /// When a job whose attempt number `attempt` (1 = the first) failed at `failedAt` is tried
    /// next; nil when that was the last attempt the policy allows.
    public func nextAttempt(afterFailedAttempt attempt: Int, at failedAt: Date, using random: inout some RandomNumberGenerator) -> Date? {
        guard attempt < maxAttempts else { return nil }
        let (seconds, attoseconds) = wait(afterFailedAttempts: attempt, using: &random).components
        return failedAt.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// A uniformly random duration in `0...ceiling`, at nanosecond resolution.
    private static func uniform(upTo ceiling: Duration, using random: inout some RandomNumberGenerator) -> Duration {
        let nanoseconds = ceiling.components.seconds * 1_000_000_000 + ceiling.components.attoseconds / 1_000_000_000
        guard nanoseconds > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...nanoseconds, using: &random))
    }
}

/// What a failed attempt says about trying again, as decided by the client that understands it.
///
/// Classification belongs to each protocol (a verifyReceipt 21005 and a Server API 4040002 mean
/// "try again" in different words); the ``RetryStateMachine`` only needs this classification.
public enum RetryDisposition: Sendable, Equatable {
    /// Trying again cannot help (bad credentials, unknown transaction).
    case permanent
    /// Trying again may help after a backoff.
    case transient
    /// Trying again may help, but not before the server-given delay (HTTP `Retry-After`).
    case transientAfter(Duration)
}

/// The ``RetryStateMachine``'s decision after a failed attempt; the client executes it.
public enum RetryAction<Failure: Error>: Sendable where Failure: Sendable {
    /// Wait this long, then make the next attempt.
    case retry(after: Duration)
    /// Stop: the failure is permanent, or the server asked for a longer wait than the policy allows.
    case giveUp(Failure)
    /// Stop: the policy's attempts are used up; `last` is the final attempt's failure.
    case exhausted(last: Failure, attempts: Int)
}

extension RetryAction: Equatable where Failure: Equatable {}

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
    /// jittered wait below `backoffCeiling`. A server-given delay is honoured
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
        let jittered = policy.wait(afterFailedAttempts: failedAttempts, using: &random)
        return .retry(after: max(jittered, serverDelay ?? .zero))
    }
}

/// Reads an HTTP `Retry-After` value (RFC 9110 §10.2.3).
///
/// Apple's rate limiter may answer 429 with a delay the client must respect; the header is either
/// whole seconds or an HTTP date, which is turned into a delay relative to the caller's `now`
/// (injected, because the engine never reads the wall clock itself).
public enum RetryAfter {
    /// The delay the header asks for, or nil when the value is neither form. Dates in the past mean
    /// no wait.
    public static func delay(from value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int64(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = httpDateFormatter.date(from: trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .milliseconds(Int64((interval * 1000).rounded())) : .zero
    }

    /// IMF-fixdate, the only date form senders may produce (`Sun, 06 Nov 1994 08:49:37 GMT`).
    private static var httpDateFormatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }
}

import Foundation
import PerennialCore

/// Runs an operation under a ``RetryPolicy``: the I/O half of the ``RetryStateMachine``.
///
/// Sleeping goes through an injected closure, so tests run instantly and record the waits the
/// policy chose; production sleeps on `Task.sleep`.
public struct Retrier: Sendable {
    /// The outcome of one attempt as the client classified it.
    public enum Attempt<Success: Sendable, Failure: Error & Sendable>: Sendable {
        /// The attempt produced a result; no more attempts are made.
        case success(Success)
        /// The attempt failed; the disposition decides whether another follows.
        case failure(Failure, RetryDisposition)
    }

    /// How an operation ended.
    public enum Outcome<Success: Sendable, Failure: Error & Sendable>: Sendable {
        /// An attempt succeeded.
        case success(Success)
        /// An attempt failed permanently, the server asked for too long a wait, or the task was
        /// cancelled between attempts.
        case giveUp(Failure)
        /// Every attempt the policy allows failed; `last` is the final failure.
        case exhausted(last: Failure, attempts: Int)
    }

    /// The policy enforced on every operation.
    public let policy: RetryPolicy
    /// Where the jitter comes from.
    public let random: RandomSource
    /// Waits for the given duration; returns early (without throwing) when the task is cancelled.
    public let sleep: @Sendable (Duration) async -> Void

    /// Creates a retrier; by default it draws system randomness and sleeps for real.
    public init(
        policy: RetryPolicy = .standard,
        random: RandomSource = .system(),
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.policy = policy
        self.random = random
        self.sleep = sleep
    }

    /// Calls `attempt` (with the 1-based attempt number) until it succeeds or the policy stops it.
    ///
    /// A cancelled task makes no further attempts: the failure that preceded the cancellation is
    /// reported as the give-up reason.
    public func run<Success: Sendable, Failure: Error & Sendable>(
        _ attempt: (Int) async -> Attempt<Success, Failure>
    ) async -> Outcome<Success, Failure> {
        var machine = RetryStateMachine<Failure>(policy: policy)
        var generator = random
        var number = 1
        while true {
            switch await attempt(number) {
            case .success(let value):
                return .success(value)
            case .failure(let failure, let disposition):
                switch machine.attemptFailed(failure, disposition: disposition, using: &generator) {
                case .giveUp(let failure):
                    return .giveUp(failure)
                case .exhausted(let last, let attempts):
                    return .exhausted(last: last, attempts: attempts)
                case .retry(let delay):
                    await sleep(delay)
                    if Task.isCancelled { return .giveUp(failure) }
                    number += 1
                }
            }
        }
    }
}

/// A random number generator that concurrent requests of one client can share.
///
/// Each ``RetryStateMachine`` draws its jitter from the generator it is handed; a client serves
/// many requests at once, so its generator lives behind a lock. Seeded, it makes a client's whole
/// sequence of waits reproducible; unseeded, it uses the system generator.
public final class RandomSource: RandomNumberGenerator, @unchecked Sendable {
    private let lock = NSLock()
    private var generator: any RandomNumberGenerator

    /// A source backed by the system's generator.
    public static func system() -> RandomSource {
        RandomSource(generator: SystemRandomNumberGenerator())
    }

    /// A deterministic source (see ``SeededRandomNumberGenerator``).
    public static func seeded(_ seed: UInt64) -> RandomSource {
        RandomSource(generator: SeededRandomNumberGenerator(seed: seed))
    }

    private init(generator: any RandomNumberGenerator) {
        self.generator = generator
    }

    /// The next 64 random bits; safe to call from any task.
    public func next() -> UInt64 {
        lock.withLock { generator.next() }
    }
}

import Foundation
import PerennialAppStore
import PerennialCore
import Testing

@Suite("Retry state machine")
struct RetryStateMachineTests {
    struct Failure: Error, Equatable, Sendable {
        let id: Int
    }

    static let policy = RetryPolicy(maxAttempts: 8, baseDelay: .seconds(1), maxDelay: .seconds(8), maxRetryAfter: .seconds(60))

    /// The delays chosen for `count` consecutive transient failures.
    static func delays(seed: UInt64, count: Int, policy: RetryPolicy = policy) -> [Duration] {
        var machine = RetryStateMachine<Failure>(policy: policy)
        var random = SeededRandomNumberGenerator(seed: seed)
        return (1...count).compactMap { attempt in
            guard case .retry(let delay) = machine.attemptFailed(Failure(id: attempt), disposition: .transient, using: &random)
            else { return nil }
            return delay
        }
    }

    @Test func ceilingDoublesThenCaps() {
        let ceilings = (1...6).map { Self.policy.backoffCeiling(afterFailedAttempts: $0) }
        #expect(ceilings == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
    }

    @Test func ceilingDoesNotOverflowForLargeAttemptCounts() {
        #expect(Self.policy.backoffCeiling(afterFailedAttempts: 10_000) == .seconds(8))
    }

    @Test(arguments: [1, 2, 3, 99] as [UInt64])
    func jitteredDelaysStayUnderTheirCeiling(seed: UInt64) {
        let delays = Self.delays(seed: seed, count: 7)
        #expect(delays.count == 7)
        for (index, delay) in delays.enumerated() {
            #expect(delay >= .zero)
            #expect(delay <= Self.policy.backoffCeiling(afterFailedAttempts: index + 1))
            #expect(delay <= Self.policy.maxDelay)
        }
    }

    @Test func seededDelaysAreReproducible() {
        #expect(Self.delays(seed: 7, count: 7) == Self.delays(seed: 7, count: 7))
        #expect(Self.delays(seed: 7, count: 7) != Self.delays(seed: 8, count: 7))
    }

    @Test func delaysGrowOnAverage() {
        // Full jitter makes single delays random; across many seeds the mean follows the ceiling (c/2).
        let runs = (0..<400).map { Self.delays(seed: UInt64($0), count: 4) }
        let means = (0..<4).map { index in
            runs.map { Double($0[index].components.seconds) + Double($0[index].components.attoseconds) / 1e18 }
                .reduce(0, +) / Double(runs.count)
        }
        #expect(means[0] < means[1] && means[1] < means[2] && means[2] < means[3])
        #expect(abs(means[3] - 4.0) < 0.5)
    }

    @Test func attemptsAreCapped() {
        var machine = RetryStateMachine<Failure>(policy: RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(5), maxRetryAfter: .seconds(5)))
        var random = SeededRandomNumberGenerator(seed: 1)
        for attempt in 1...2 {
            guard case .retry = machine.attemptFailed(Failure(id: attempt), disposition: .transient, using: &random) else {
                Issue.record("attempt \(attempt) should be retried")
                return
            }
        }
        #expect(machine.attemptFailed(Failure(id: 3), disposition: .transient, using: &random) == .exhausted(last: Failure(id: 3), attempts: 3))
    }

    @Test func permanentFailureGivesUpAtOnce() {
        var machine = RetryStateMachine<Failure>(policy: Self.policy)
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(machine.attemptFailed(Failure(id: 1), disposition: .permanent, using: &random) == .giveUp(Failure(id: 1)))
    }

    @Test func retryAfterIsALowerBound() {
        var machine = RetryStateMachine<Failure>(policy: Self.policy)
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(machine.attemptFailed(Failure(id: 1), disposition: .transientAfter(.seconds(30)), using: &random) == .retry(after: .seconds(30)))
    }

    @Test func retryAfterBeyondThePolicyGivesUp() {
        var machine = RetryStateMachine<Failure>(policy: Self.policy)
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(machine.attemptFailed(Failure(id: 1), disposition: .transientAfter(.seconds(61)), using: &random) == .giveUp(Failure(id: 1)))
    }

    @Test func singleAttemptPolicyNeverRetries() {
        var machine = RetryStateMachine<Failure>(policy: .singleAttempt)
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(machine.attemptFailed(Failure(id: 1), disposition: .transient, using: &random) == .exhausted(last: Failure(id: 1), attempts: 1))
    }

    @Test func retrierSleepsTheChosenDelaysAndStopsOnSuccess() async {
        let sleeps = SleepRecorder()
        let retrier = sleeps.retrier(Self.policy, seed: 5)
        let outcome: Retrier.Outcome<String, Failure> = await retrier.run { attempt in
            attempt < 4 ? .failure(Failure(id: attempt), .transient) : .success("done on \(attempt)")
        }
        guard case .success(let value) = outcome else {
            Issue.record("expected success, got \(outcome)")
            return
        }
        #expect(value == "done on 4")
        #expect(await sleeps.delays == Self.delays(seed: 5, count: 3))
    }
}

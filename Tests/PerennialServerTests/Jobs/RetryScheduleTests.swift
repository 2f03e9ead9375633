import Foundation
import PerennialAppStore
import PerennialCore
import Testing

/// ``RetryPolicy`` as the jobs use it: the next attempt of a rescheduled job (webhook deliveries,
/// refund-request answers), with equal jitter.
@Suite struct RetryScheduleTests {
    let failedAt = Date(timeIntervalSince1970: 1_000_000)

    @Test func waitsGrowExponentiallyWithinJitterBoundsUpToTheCap() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .seconds(10), maxDelay: .seconds(100), jitter: .equal)
        var random = SeededRandomNumberGenerator(seed: 3)
        for (attempt, ceiling) in [(1, 10.0), (2, 20), (3, 40), (4, 80), (5, 100), (9, 100)] {
            guard let at = policy.nextAttempt(afterFailedAttempt: attempt, at: failedAt, using: &random) else {
                Issue.record("attempt \(attempt) was the last")
                continue
            }
            let wait = at.timeIntervalSince(failedAt)
            #expect(wait >= ceiling / 2 && wait <= ceiling, "attempt \(attempt): waited \(wait), ceiling \(ceiling)")
        }
    }

    /// Full jitter, as a client retrying in place uses it, may wait anything below the ceiling.
    @Test func fullJitterWaitsFromZeroToTheCeiling() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .seconds(10), maxDelay: .seconds(100))
        var random = SeededRandomNumberGenerator(seed: 5)
        let waits = (0..<200).map { _ in policy.wait(afterFailedAttempts: 1, using: &random) }
        #expect(waits.allSatisfy { $0 >= .zero && $0 <= .seconds(10) })
        #expect(waits.contains { $0 < .seconds(5) } && waits.contains { $0 > .seconds(5) })
    }

    @Test func theLastAttemptHasNoNext() {
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .equal)
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(policy.nextAttempt(afterFailedAttempt: 2, at: failedAt, using: &random) != nil)
        #expect(policy.nextAttempt(afterFailedAttempt: 3, at: failedAt, using: &random) == nil)
    }

    /// What docs/webhooks.md promises: a receiver down overnight still gets the event.
    @Test func webhookDeliveriesAreRetriedForNineteenToThirtyNineHours() {
        let policy = RetryPolicy.webhookDelivery
        for seed in UInt64(1)...20 {
            var random = SeededRandomNumberGenerator(seed: seed)
            var at = failedAt
            var attempt = 1
            while let next = policy.nextAttempt(afterFailedAttempt: attempt, at: at, using: &random) {
                at = next
                attempt += 1
            }
            let hours = at.timeIntervalSince(failedAt) / 3600
            #expect(attempt == 16 && hours >= 19 && hours <= 39, "seed \(seed): \(attempt) attempts over \(hours) h")
        }
    }

    @Test func jitterSpreadsReceiversAndIsReproducibleForASeed() {
        let policy = RetryPolicy.webhookDelivery
        func waits(seed: UInt64) -> [Date?] {
            var random = SeededRandomNumberGenerator(seed: seed)
            return (0..<20).map { _ in policy.nextAttempt(afterFailedAttempt: 4, at: failedAt, using: &random) }
        }
        #expect(waits(seed: 9) == waits(seed: 9))
        #expect(Set(waits(seed: 9)).count > 15)
    }
}

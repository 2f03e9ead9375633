import Foundation
import PerennialServer
import PerennialCore
import Testing

@Suite struct WebhookRetryPolicyTests {
    let failedAt = Date(timeIntervalSince1970: 1_000_000)

    @Test func waitsGrowExponentiallyWithinJitterBoundsUpToTheCap() {
        let policy = WebhookRetryPolicy(baseDelay: 10, maximumDelay: 100, maximumAttempts: 10)
        var random = SeededRandomNumberGenerator(seed: 3)
        for (attempt, ceiling) in [(1, 10.0), (2, 20), (3, 40), (4, 80), (5, 100), (9, 100)] {
            guard case .retry(let at) = policy.decision(afterFailedAttempt: attempt, at: failedAt, using: &random) else {
                Issue.record("attempt \(attempt) was dead-lettered")
                continue
            }
            let wait = at.timeIntervalSince(failedAt)
            #expect(wait >= ceiling / 2 && wait <= ceiling, "attempt \(attempt): waited \(wait), ceiling \(ceiling)")
        }
    }

    @Test func deadLettersAfterTheLastAttempt() {
        let policy = WebhookRetryPolicy(baseDelay: 1, maximumDelay: 10, maximumAttempts: 3)
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(policy.decision(afterFailedAttempt: 2, at: failedAt, using: &random) != .deadLetter)
        #expect(policy.decision(afterFailedAttempt: 3, at: failedAt, using: &random) == .deadLetter)
    }

    /// What docs/webhooks.md promises: a receiver down overnight still gets the event.
    @Test func theDefaultPolicyRetriesForNineteenToThirtyNineHours() {
        let policy = WebhookRetryPolicy()
        for seed in UInt64(1)...20 {
            var random = SeededRandomNumberGenerator(seed: seed)
            var at = failedAt
            var attempt = 1
            while case .retry(let next) = policy.decision(afterFailedAttempt: attempt, at: at, using: &random) {
                at = next
                attempt += 1
            }
            let hours = at.timeIntervalSince(failedAt) / 3600
            #expect(attempt == 16 && hours >= 19 && hours <= 39, "seed \(seed): \(attempt) attempts over \(hours) h")
        }
    }

    @Test func jitterSpreadsReceiversAndIsReproducibleForASeed() {
        let policy = WebhookRetryPolicy()
        func waits(seed: UInt64) -> [WebhookRetryDecision] {
            var random = SeededRandomNumberGenerator(seed: seed)
            return (0..<20).map { _ in policy.decision(afterFailedAttempt: 4, at: failedAt, using: &random) }
        }
        #expect(waits(seed: 9) == waits(seed: 9))
        #expect(Set(waits(seed: 9)).count > 15)
    }
}

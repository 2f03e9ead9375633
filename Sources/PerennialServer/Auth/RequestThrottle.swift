import Foundation
import NIOCore
import PerennialCore
import Synchronization

/// How fast one caller is answered (``ServerLimits``): steady rates, with bursts, per address
/// and per app key on the client routes, and a back-off after failed authentications per address.
///
/// The client key ships inside every copy of the app and admin keys can be guessed, so an address
/// that fails again and again is slowed before its next guess is even looked at: after
/// `failuresBeforeBackoff` failures each further one doubles its wait, from one second; only a
/// quiet spell clears it (a success does not: the client key is public, and a success with it
/// would otherwise reset an address's admin-key guesses). Held in
/// memory, per instance (docs/configuration.md says so): a rate is a property of the traffic one
/// process sees, and a database write per request would cost more than the request. Each map is
/// bounded: past ``maximumTracked`` callers those at rest are forgotten, and if that leaves more
/// than half, all are (so a sweep costs its n at most once every n/2 new callers, however many
/// addresses a flood comes from).
final class RequestThrottle: Sendable {
    static let maximumTracked = 100_000

    private struct Failures {
        var count = 0
        var last: Date
        var waitUntil: Date?
    }

    private struct State {
        var byAddress: [String: TokenBucket] = [:]
        var byKey: [String: TokenBucket] = [:]
        var failures: [String: Failures] = [:]
    }

    private let limits: ServerLimits
    private let clock: any TimeSource
    private let state = Mutex(State())

    init(limits: ServerLimits, clock: any TimeSource) {
        self.limits = limits
        self.clock = clock
    }

    /// Takes one request of `address` with `key` from their rates.
    /// - Throws: ``AuthError/rateLimited(retryAfter:)`` with the seconds until one is allowed.
    func admit(address: String, key: String) throws(AuthError) {
        let now = clock.now
        let limits = limits
        let wait: Date? = state.withLock { state in
            let capacity = limits.clientBurst
            if let until = Self.take(&state.byAddress, address, capacity: capacity, rate: limits.clientRequestsPerSecondPerAddress, now: now) {
                return until
            }
            return Self.take(&state.byKey, key, capacity: max(capacity, limits.clientRequestsPerSecondPerKey), rate: limits.clientRequestsPerSecondPerKey, now: now)
        }
        if let wait { throw .rateLimited(retryAfter: Self.seconds(from: now, to: wait)) }
    }

    /// Refuses `address` while it waits after repeated failures.
    /// - Throws: ``AuthError/tooManyFailures(retryAfter:)``.
    func checkBackoff(address: String) throws(AuthError) {
        let now = clock.now
        let until = state.withLock { $0.failures[address]?.waitUntil }
        if let until, until > now { throw .tooManyFailures(retryAfter: Self.seconds(from: now, to: until)) }
    }

    /// Counts a failed authentication of `address`; returns how many it has in a row.
    @discardableResult
    func recordFailure(address: String) -> Int {
        let now = clock.now
        let limits = limits
        return state.withLock { state in
            var failures = state.failures[address] ?? Failures(last: now)
            // A quiet address starts over: the back-off is for a burst of guesses, not for a
            // user who mistyped a key last week.
            if now.timeIntervalSince(failures.last) > Self.seconds(limits.maxFailureBackoff) * 2 { failures.count = 0 }
            failures.count += 1
            failures.last = now
            let over = failures.count - limits.failuresBeforeBackoff
            if over >= 0 {
                let wait = min(pow(2, Double(min(over, 62))), Self.seconds(limits.maxFailureBackoff))
                failures.waitUntil = now.addingTimeInterval(wait)
            }
            state.failures[address] = failures
            if state.failures.count > Self.maximumTracked {
                state.failures = Self.swept(state.failures) { ($0.waitUntil ?? $0.last) > now }
            }
            return failures.count
        }
    }

    private static func take(_ buckets: inout [String: TokenBucket], _ id: String, capacity: Double, rate: Double, now: Date) -> Date? {
        var bucket = buckets[id] ?? TokenBucket(capacity: capacity, ratePerSecond: rate, start: now)
        let wait = bucket.take(at: now)
        buckets[id] = bucket
        if buckets.count > maximumTracked {
            // A bucket idle long enough to be full again is the same as none.
            buckets = swept(buckets) { !$0.isFull(at: now) }
        }
        return wait
    }

    /// `entries` less those at rest, or none when more than half are busy.
    private static func swept<Value>(_ entries: [String: Value], keeping busy: (Value) -> Bool) -> [String: Value] {
        let kept = entries.filter { busy($0.value) }
        return kept.count > maximumTracked / 2 ? [:] : kept
    }

    /// How many addresses, keys and failing addresses are tracked, for tests of the bound.
    var trackedCount: Int {
        state.withLock { $0.byAddress.count + $0.byKey.count + $0.failures.count }
    }

    /// Whole seconds for `Retry-After`, at least one.
    private static func seconds(from now: Date, to until: Date) -> Int {
        max(1, Int(until.timeIntervalSince(now).rounded(.up)))
    }

    private static func seconds(_ amount: TimeAmount) -> Double {
        Double(amount.nanoseconds) / 1e9
    }
}

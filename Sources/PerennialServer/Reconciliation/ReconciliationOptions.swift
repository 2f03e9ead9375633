public import Foundation

/// How the reconciliation job works: leases, polling, Apple's rate limit, backoff and the sweep.
/// Runtime options of the job, not read from the configuration file. Defaults suit production;
/// tests shorten the intervals.
public struct ReconciliationOptions: Sendable {
    /// Names this process's leases; unique per process.
    public var owner: String
    /// Checks claimed per round.
    public var batchSize: Int
    /// How long a claim is held; longer than Apple's slowest answer including the clients' retries.
    public var leaseDuration: TimeInterval
    /// How often the job looks for due checks.
    public var pollInterval: Duration
    /// Calls to Apple allowed at once, and refilled per second (Apple's limits are per app and
    /// endpoint; staying well below them keeps the answers coming).
    public var rateCapacity: Double
    public var ratePerSecond: Double
    /// Backoff after a failed check: doubles from `retryBaseDelay` per attempt, capped.
    public var retryBaseDelay: TimeInterval
    public var retryMaximumDelay: TimeInterval
    /// The shortest time until the next check after a successful one (an answer that changed
    /// nothing must not make the check due again at once).
    public var recheckInterval: TimeInterval
    /// How often every non-expired subscription is checked, whatever its schedule says.
    public var sweepInterval: TimeInterval
    /// Backfilling from notification history goes back at most this far (Apple keeps 180 days).
    public var maximumBackfill: TimeInterval

    public init(
        owner: String = WebhookDeliveryOptions.processOwner(), batchSize: Int = 16, leaseDuration: TimeInterval = 300,
        pollInterval: Duration = .seconds(30), rateCapacity: Double = 10, ratePerSecond: Double = 5, retryBaseDelay: TimeInterval = 60,
        retryMaximumDelay: TimeInterval = 6 * 3600, recheckInterval: TimeInterval = 3600, sweepInterval: TimeInterval = 86_400,
        maximumBackfill: TimeInterval = 179 * 86_400
    ) {
        self.owner = owner
        self.batchSize = batchSize
        self.leaseDuration = leaseDuration
        self.pollInterval = pollInterval
        self.rateCapacity = rateCapacity
        self.ratePerSecond = ratePerSecond
        self.retryBaseDelay = retryBaseDelay
        self.retryMaximumDelay = retryMaximumDelay
        self.recheckInterval = recheckInterval
        self.sweepInterval = sweepInterval
        self.maximumBackfill = maximumBackfill
    }

    /// When to try a check again after its `attempts`-th consecutive failure at `now`.
    public func retryDate(afterAttempts attempts: Int, now: Date) -> Date {
        let exponent = Double(min(max(attempts - 1, 0), 30))
        return now.addingTimeInterval(min(retryBaseDelay * pow(2, exponent), retryMaximumDelay))
    }
}

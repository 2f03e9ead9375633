public import Foundation
public import PerennialAppStore

/// How the webhook job works: batch size, lease, poll interval, request timeout and retry policy.
/// Runtime options of the job, not read from the configuration file: the file's
/// `"webhookDelivery"` block is ``WebhookDeliveryConfiguration``, which sets some of these through
/// ``WebhookDeliveryConfiguration/options``. Defaults suit production; tests shorten the intervals.
public struct WebhookDeliveryOptions: Sendable {
    /// Names this process's leases; unique per process so a restarted process does not complete
    /// leases of its previous life.
    public var owner: String
    /// Entries claimed per round (each the head of a different subscriber's queue, so they are
    /// delivered concurrently without breaking per-subscriber order).
    public var batchSize: Int
    /// How long a claim is held; longer than `requestTimeout` × endpoints, so a live owner
    /// finishes before another process may re-claim.
    public var leaseDuration: TimeInterval
    /// How often the job looks for due entries when nothing nudges it (other processes' events,
    /// retries coming due).
    public var pollInterval: Duration
    /// The deadline of one POST to one endpoint.
    public var requestTimeout: Duration
    public var retryPolicy: RetryPolicy

    public init(
        owner: String = WebhookDeliveryOptions.processOwner(), batchSize: Int = 32, leaseDuration: TimeInterval = 120,
        pollInterval: Duration = .seconds(5), requestTimeout: Duration = .seconds(10), retryPolicy: RetryPolicy = .webhookDelivery
    ) {
        self.owner = owner
        self.batchSize = batchSize
        self.leaseDuration = leaseDuration
        self.pollInterval = pollInterval
        self.requestTimeout = requestTimeout
        self.retryPolicy = retryPolicy
    }

    /// `host:pid:random`, readable in the admin API and unique per process.
    public static func processOwner() -> String {
        let process = ProcessInfo.processInfo
        return "\(process.hostName):\(process.processIdentifier):\(UUID().uuidString.prefix(8))"
    }
}

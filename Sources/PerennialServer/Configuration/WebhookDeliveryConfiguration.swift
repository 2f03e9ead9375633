import Foundation

/// The webhook job's timing as the configuration file sets it (`"webhookDelivery"`): how long a
/// claim is held and how often idle processes look for work.
///
/// Exposed because several `perennial serve` processes on one PostgreSQL database hand work over
/// through lease expiry: the lease decides how soon a survivor re-delivers what a crashed process
/// had claimed, and the poll interval how soon a process notices events another one stored.
public struct WebhookDeliveryConfiguration: Sendable, Decodable {
    /// How long a claimed delivery is held before another process may take it over.
    public var leaseSeconds: Double
    /// How often an idle process looks for due deliveries.
    public var pollIntervalSeconds: Double
    /// The deadline of one POST to one endpoint; the lease must outlast it.
    public var requestTimeoutSeconds: Double

    /// The defaults of ``WebhookDeliveryOptions``.
    public init() {
        let defaults = WebhookDeliveryOptions()
        leaseSeconds = defaults.leaseDuration
        pollIntervalSeconds = Self.seconds(defaults.pollInterval)
        requestTimeoutSeconds = Self.seconds(defaults.requestTimeout)
    }

    private enum CodingKeys: String, CodingKey {
        case leaseSeconds, pollIntervalSeconds, requestTimeoutSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        leaseSeconds = try Self.positive(.leaseSeconds, in: container) ?? leaseSeconds
        pollIntervalSeconds = try Self.positive(.pollIntervalSeconds, in: container) ?? pollIntervalSeconds
        requestTimeoutSeconds = try Self.positive(.requestTimeoutSeconds, in: container) ?? requestTimeoutSeconds
        guard leaseSeconds > requestTimeoutSeconds else {
            throw DecodingError.dataCorruptedError(
                forKey: .leaseSeconds, in: container,
                debugDescription: "\(leaseSeconds) must exceed requestTimeoutSeconds (\(requestTimeoutSeconds)), or a live process loses its lease mid-request")
        }
    }

    /// The job's runtime options with these timings and the process's lease owner.
    public var options: WebhookDeliveryOptions {
        WebhookDeliveryOptions(
            leaseDuration: leaseSeconds, pollInterval: .milliseconds(Int64(pollIntervalSeconds * 1000)),
            requestTimeout: .milliseconds(Int64(requestTimeoutSeconds * 1000)))
    }

    private static func positive(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws -> Double? {
        guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value > 0, value.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(value) is not a positive number of seconds")
        }
        return value
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

import Foundation

/// The mass-extension job's timing as the configuration file sets it (`"massExtensions"`): how
/// often Apple's status is asked while a request runs, how long a claim is held, and how often an
/// idle process looks for requests.
///
/// Exposed for the same reason as ``WebhookDeliveryConfiguration``: processes sharing a
/// PostgreSQL database hand a request over through lease expiry, so the lease decides how soon a
/// survivor finishes what a crashed process was following.
public struct MassExtensionConfiguration: Sendable, Decodable {
    public var pollIntervalSeconds: Double
    public var leaseSeconds: Double
    public var claimIntervalSeconds: Double

    /// The defaults of ``MassExtensions/Options``.
    public init() {
        let defaults = MassExtensions.Options()
        pollIntervalSeconds = defaults.pollInterval
        leaseSeconds = defaults.leaseDuration
        let (seconds, attoseconds) = defaults.claimInterval.components
        claimIntervalSeconds = Double(seconds) + Double(attoseconds) / 1e18
    }

    private enum CodingKeys: String, CodingKey {
        case pollIntervalSeconds, leaseSeconds, claimIntervalSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        for (key, value) in [(CodingKeys.pollIntervalSeconds, \Self.pollIntervalSeconds), (.leaseSeconds, \.leaseSeconds), (.claimIntervalSeconds, \.claimIntervalSeconds)] {
            guard let seconds = try container.decodeIfPresent(Double.self, forKey: key) else { continue }
            guard seconds > 0, seconds.isFinite else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(seconds) is not a positive number of seconds")
            }
            self[keyPath: value] = seconds
        }
        guard leaseSeconds > pollIntervalSeconds else {
            throw DecodingError.dataCorruptedError(
                forKey: .leaseSeconds, in: container,
                debugDescription: "\(leaseSeconds) must exceed pollIntervalSeconds (\(pollIntervalSeconds)), or a live process loses its lease between two polls")
        }
    }

    /// The job's runtime options with these timings and the process's lease owner.
    public var options: MassExtensions.Options {
        MassExtensions.Options(
            pollInterval: pollIntervalSeconds, claimInterval: .milliseconds(Int64(claimIntervalSeconds * 1000)), leaseDuration: leaseSeconds)
    }
}

import Foundation

/// How the server runs the imports started through the admin API, as the configuration file sets
/// it (`"imports"`, docs/import.md): the pace of its calls to Apple, the rows asked about at
/// once, how long after an outage an import is tried again, and how a claim is held.
public struct ImportConfiguration: Sendable, Decodable {
    public var transactionHistoryPerSecond: Double
    public var subscriptionStatusesPerSecond: Double
    public var verifyReceiptPerSecond: Double
    public var rowsAtOnce: Int
    public var retrySeconds: Double
    public var leaseSeconds: Double
    public var claimIntervalSeconds: Double

    /// The defaults of ``ImportJobs/Options``.
    public init() {
        let defaults = ImportJobs.Options()
        transactionHistoryPerSecond = defaults.rates[.transactionHistory] ?? 0
        subscriptionStatusesPerSecond = defaults.rates[.subscriptionStatuses] ?? 0
        verifyReceiptPerSecond = defaults.rates[.verifyReceipt] ?? 0
        rowsAtOnce = defaults.rowsAtOnce
        retrySeconds = defaults.retryDelay
        leaseSeconds = defaults.leaseDuration
        let (seconds, attoseconds) = defaults.claimInterval.components
        claimIntervalSeconds = Double(seconds) + Double(attoseconds) / 1e18
    }

    private enum CodingKeys: String, CodingKey {
        case transactionHistoryPerSecond, subscriptionStatusesPerSecond, verifyReceiptPerSecond, rowsAtOnce, retrySeconds, leaseSeconds,
            claimIntervalSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        let rates: [(CodingKeys, WritableKeyPath<Self, Double>)] = [
            (.transactionHistoryPerSecond, \.transactionHistoryPerSecond), (.subscriptionStatusesPerSecond, \.subscriptionStatusesPerSecond),
            (.verifyReceiptPerSecond, \.verifyReceiptPerSecond),
        ]
        for (key, value) in rates {
            guard let rate = try container.decodeIfPresent(Double.self, forKey: key) else { continue }
            guard rate >= 0, rate.isFinite else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(rate) is not a rate (0 leaves the endpoint unpaced)")
            }
            self[keyPath: value] = rate
        }
        let durations: [(CodingKeys, WritableKeyPath<Self, Double>)] = [
            (.retrySeconds, \.retrySeconds), (.leaseSeconds, \.leaseSeconds), (.claimIntervalSeconds, \.claimIntervalSeconds),
        ]
        for (key, value) in durations {
            guard let seconds = try container.decodeIfPresent(Double.self, forKey: key) else { continue }
            guard seconds > 0, seconds.isFinite else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(seconds) is not a positive number of seconds")
            }
            self[keyPath: value] = seconds
        }
        if let rows = try container.decodeIfPresent(Int.self, forKey: .rowsAtOnce) {
            guard rows >= 1 else { throw DecodingError.dataCorruptedError(forKey: .rowsAtOnce, in: container, debugDescription: "\(rows) is below 1") }
            rowsAtOnce = rows
        }
    }

    /// The job's runtime options with these settings and the process's lease owner.
    public var options: ImportJobs.Options {
        ImportJobs.Options(
            rates: [
                .transactionHistory: transactionHistoryPerSecond, .subscriptionStatuses: subscriptionStatusesPerSecond,
                .verifyReceipt: verifyReceiptPerSecond,
            ],
            rowsAtOnce: rowsAtOnce, retryDelay: retrySeconds, claimInterval: .milliseconds(Int64(claimIntervalSeconds * 1000)),
            leaseDuration: leaseSeconds)
    }
}

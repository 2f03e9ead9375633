/// What one timed phase of load measured: how many requests completed, how fast, and the latency
/// distribution, so a route can be compared with the trivial route measured in the same run.
///
/// Percentiles are nearest-rank over the sorted latencies: exact, and cheap enough for the few
/// hundred thousand samples a run records.
public struct LatencySummary: Hashable, Sendable {
    /// Requests answered with a 2xx status.
    public let requests: Int
    /// Requests answered with another status or failing on the wire; they are not counted as
    /// throughput, since a fast error is no service.
    public let errors: Int
    /// Wall time of the phase in seconds.
    public let seconds: Double
    /// Median latency in nanoseconds.
    public let p50: UInt64
    /// 99th-percentile latency in nanoseconds.
    public let p99: UInt64
    /// Slowest request in nanoseconds.
    public let max: UInt64
    /// What the first failed request got (`POST /v1/…: HTTP 401`, or the connection's error):
    /// a run whose requests fail measures nothing, and says why.
    public let firstFailure: String?

    /// Summarizes the latencies (nanoseconds, in any order) of every request of a phase, failed
    /// ones included, over `seconds` of wall time.
    public init(latencies: [UInt64], errors: Int, seconds: Double, firstFailure: String? = nil) {
        let sorted = latencies.sorted()
        self.requests = latencies.count - errors
        self.errors = errors
        self.firstFailure = firstFailure
        self.seconds = seconds
        self.p50 = Self.percentile(sorted, 0.50)
        self.p99 = Self.percentile(sorted, 0.99)
        self.max = sorted.last ?? 0
    }

    /// Successful requests per second.
    public var throughput: Double { seconds > 0 ? Double(requests) / seconds : 0 }

    /// The nearest-rank `fraction` percentile of `sorted`: the smallest value at least `fraction`
    /// of the samples do not exceed; 0 for no samples.
    public static func percentile(_ sorted: [UInt64], _ fraction: Double) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count, rank) - 1)]
    }
}

/// A speed target stated against the trivial route of the same server in the same run, so the
/// figure says what the route costs beyond HTTP itself on whatever machine runs it.
public struct LoadTarget: Hashable, Sendable {
    /// The least share of the trivial route's throughput the route must reach.
    public let minimumThroughputRatio: Double
    /// The most the route's p99 may be, as a multiple of the trivial route's p99.
    public let maximumP99Ratio: Double

    /// A target.
    public init(minimumThroughputRatio: Double, maximumP99Ratio: Double) {
        self.minimumThroughputRatio = minimumThroughputRatio
        self.maximumP99Ratio = maximumP99Ratio
    }
}

/// Response-time percentiles of a performance test, in milliseconds.
public struct PerformanceTestResponseTimes: Codable, Hashable, Sendable {
    @Lenient<IntegerNumber<Int>> public var average: Int?
    @Lenient<IntegerNumber<Int>> public var p50: Int?
    @Lenient<IntegerNumber<Int>> public var p90: Int?
    @Lenient<IntegerNumber<Int>> public var p95: Int?
    @Lenient<IntegerNumber<Int>> public var p99: Int?

    /// Creates response times.
    public init(average: Int? = nil, p50: Int? = nil, p90: Int? = nil, p95: Int? = nil, p99: Int? = nil) {
        self.average = average
        self.p50 = p50
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
    }
}

/// The limits Apple applies in a Retention Messaging performance test.
public struct PerformanceTestConfig: Codable, Hashable, Sendable {
    @Lenient<IntegerNumber<Int>> public var maxConcurrentRequests: Int?
    @Lenient<IntegerNumber<Int>> public var totalRequests: Int?
    /// Milliseconds.
    @Lenient<IntegerNumber<Int>> public var totalDuration: Int?
    /// Milliseconds.
    @Lenient<IntegerNumber<Int>> public var responseTimeThreshold: Int?
    /// Percent.
    @Lenient<IntegerNumber<Int>> public var successRateThreshold: Int?

    /// Creates a configuration.
    public init(
        maxConcurrentRequests: Int? = nil,
        totalRequests: Int? = nil,
        totalDuration: Int? = nil,
        responseTimeThreshold: Int? = nil,
        successRateThreshold: Int? = nil
    ) {
        self.maxConcurrentRequests = maxConcurrentRequests
        self.totalRequests = totalRequests
        self.totalDuration = totalDuration
        self.responseTimeThreshold = responseTimeThreshold
        self.successRateThreshold = successRateThreshold
    }
}

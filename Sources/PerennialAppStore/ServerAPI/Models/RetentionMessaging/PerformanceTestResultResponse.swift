/// The result of a Retention Messaging performance test.
public struct PerformanceTestResultResponse: Codable, Hashable, Sendable {
    public var config: PerformanceTestConfig?
    public var target: String?
    /// Apple's result (`PASS`, …), raw.
    public var result: String?
    @Lenient<IntegerNumber<Int>> public var successRate: Int?
    @Lenient<IntegerNumber<Int>> public var numPending: Int?
    public var responseTimes: PerformanceTestResponseTimes?
    /// Failed requests counted by send-attempt result (`TIMED_OUT`, …).
    public var failures: [String: Int]?

    /// Creates a result.
    public init(
        config: PerformanceTestConfig? = nil,
        target: String? = nil,
        result: String? = nil,
        successRate: Int? = nil,
        numPending: Int? = nil,
        responseTimes: PerformanceTestResponseTimes? = nil,
        failures: [String: Int]? = nil
    ) {
        self.config = config
        self.target = target
        self.result = result
        self.successRate = successRate
        self.numPending = numPending
        self.responseTimes = responseTimes
        self.failures = failures
    }
}

import PerennialCore
import Testing

/// Counters are plain sums whatever their size: sums back at zero are absent, the table grows
/// past its first 256 slots without losing a sum, and two counters holding the same sums are equal
/// however they were built.
@Suite("Analytics counters")
struct AnalyticsCountersTests {
    private func key(_ index: Int, currency: String = "") -> AnalyticsCounters.Key {
        AnalyticsCounters.Key(
            environment: index % 3 == 0 ? .sandbox : .production, metric: AnalyticsMetric(rawValue: 1 + index % 60), day: 20_000 + index % 400,
            productID: "product.\(index % 5)", storefront: ["USA", "FRA", ""][index % 3], currency: currency)
    }

    @Test("thousands of counters, added in two orders and taken away again")
    func sumsSurviveGrowthAndCancel() {
        var forward = AnalyticsCounters()
        var backward = AnalyticsCounters()
        var expected: [AnalyticsCounters.Key: Int64] = [:]
        for index in 0..<5_000 {
            forward.add(Int64(index % 7) - 3, to: key(index, currency: index % 2 == 0 ? "USD" : ""))
            expected[key(index, currency: index % 2 == 0 ? "USD" : ""), default: 0] += Int64(index % 7) - 3
        }
        for index in (0..<5_000).reversed() {
            backward.add(Int64(index % 7) - 3, to: key(index, currency: index % 2 == 0 ? "USD" : ""))
        }
        expected = expected.filter { $0.value != 0 }
        #expect(expected.count > 1_000)
        #expect(forward.values == expected)
        #expect(forward == backward)

        var merged = AnalyticsCounters()
        merged.add(forward)
        #expect(merged == forward)
        for (key, value) in expected { merged.add(-value, to: key) }
        #expect(merged.isEmpty)
        #expect(merged.values.isEmpty)
        #expect(merged == AnalyticsCounters())
        merged.add(5, to: key(1))
        #expect(merged.values == [key(1): 5])
    }
}

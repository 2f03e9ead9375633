import PerennialLoad
import Testing

@Suite struct LatencySummaryTests {
    @Test(arguments: [
        (0.50, UInt64(50)), (0.99, UInt64(99)), (1.0, UInt64(100)), (0.01, UInt64(1)), (0.0, UInt64(1)),
    ])
    func percentilesAreNearestRankOverSortedSamples(fraction: Double, expected: UInt64) {
        let sorted = Array(UInt64(1)...100)
        #expect(LatencySummary.percentile(sorted, fraction) == expected)
    }

    @Test func noSamplesGiveZero() {
        #expect(LatencySummary.percentile([], 0.99) == 0)
        let summary = LatencySummary(latencies: [], errors: 0, seconds: 1)
        #expect(summary.throughput == 0)
        #expect(summary.max == 0)
    }

    @Test func summaryCountsOnlySuccessesAsThroughputAndSortsItsInput() {
        let summary = LatencySummary(latencies: [30, 10, 20, 40], errors: 1, seconds: 2)
        #expect(summary.requests == 3)
        #expect(summary.errors == 1)
        #expect(summary.throughput == 1.5)
        #expect(summary.p50 == 20)
        #expect(summary.p99 == 40)
        #expect(summary.max == 40)
    }
}

@testable import PerennialLoad
import Testing

/// Rounds of one route add up to one summary, and request indices carry on between rounds.
@Suite struct PhaseSamplesTests {
    @Test func roundsAddUpAndIndicesCarryOn() {
        let samples = PhaseSamples(workers: 2)
        #expect(samples.nextIndices == [0, 0])
        samples.add(latencies: [3, 1], errors: 0, seconds: 1, nextIndices: [1, 1])
        samples.add(latencies: [2, 9, 4], errors: 1, seconds: 1, nextIndices: [3, 2])
        #expect(samples.nextIndices == [3, 2])
        let summary = samples.summary()
        #expect(summary.requests == 4)
        #expect(summary.errors == 1)
        #expect(summary.throughput == 2)
        #expect(summary.max == 9)
        #expect(summary.p50 == 3)
    }
}

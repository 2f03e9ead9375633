@testable import PerennialLoad
import Testing

/// Rounds of one route add up to one summary, and request indices carry on between rounds.
@Suite struct PhaseSamplesTests {
    @Test func roundsAddUpAndIndicesCarryOn() {
        let samples = PhaseSamples(workers: 2)
        #expect(samples.nextIndices == [0, 0])
        samples.add(latencies: [3, 1], errors: 0, seconds: 1, firstFailure: nil, nextIndices: [1, 1])
        samples.add(latencies: [2, 9, 4], errors: 1, seconds: 1, firstFailure: "GET /v1/subscribers/u0: HTTP 404", nextIndices: [3, 2])
        samples.add(latencies: [5], errors: 1, seconds: 1, firstFailure: "GET /v1/subscribers/u1: HTTP 500", nextIndices: [4, 2])
        #expect(samples.nextIndices == [4, 2])
        let summary = samples.summary()
        #expect(summary.requests == 4)
        #expect(summary.errors == 2)
        #expect(summary.firstFailure == "GET /v1/subscribers/u0: HTTP 404")
        #expect(summary.throughput == 4.0 / 3)
        #expect(summary.max == 9)
        #expect(summary.p50 == 3)
    }
}

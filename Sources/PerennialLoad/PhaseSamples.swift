/// What the rounds of one route measured so far, summed into one ``LatencySummary`` at the end.
///
/// A class, filled between rounds by the runner alone (never concurrently), so rounds can keep
/// adding to it; it also remembers each worker's next request index, so a scenario's requests
/// stay unique across rounds.
final class PhaseSamples: @unchecked Sendable {
    private(set) var latencies: [UInt64] = []
    private(set) var errors = 0
    private(set) var seconds = 0.0
    private(set) var firstFailure: String?
    private(set) var nextIndices: [Int]

    init(workers: Int) {
        nextIndices = Array(repeating: 0, count: workers)
    }

    func add(latencies: [UInt64], errors: Int, seconds: Double, firstFailure: String?, nextIndices: [Int]) {
        self.latencies += latencies
        self.errors += errors
        self.firstFailure = self.firstFailure ?? firstFailure
        self.seconds += seconds
        self.nextIndices = nextIndices
    }

    func summary() -> LatencySummary {
        LatencySummary(latencies: latencies, errors: errors, seconds: seconds, firstFailure: firstFailure)
    }
}

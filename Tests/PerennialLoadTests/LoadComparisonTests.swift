import Foundation
import PerennialLoad
import Testing

@Suite struct LoadComparisonTests {
    /// 1 000 req/s with a 2 ms p99 (the slowest 2% take 2 ms).
    private let trivial = LatencySummary(latencies: Array(repeating: 1_000_000, count: 980) + Array(repeating: 2_000_000, count: 20), errors: 0, seconds: 1)

    /// `requests` per second whose slowest 2% take `p99`.
    private func summary(requests: Int, p99: UInt64) -> LatencySummary {
        let slow = requests / 50
        return LatencySummary(
            latencies: Array(repeating: 500_000, count: requests - slow) + Array(repeating: p99, count: slow), errors: 0, seconds: 1)
    }

    @Test func ratiosCompareTheScenarioWithTheTrivialRoute() {
        let comparison = LoadComparison(scenario: .notifications, trivial: trivial, measured: summary(requests: 500, p99: 3_000_000))
        #expect(comparison.throughputRatio == 0.5)
        #expect(comparison.p99Ratio == 1.5)
        #expect(comparison.meetsTarget == true)
    }

    @Test(arguments: [
        (LoadScenario.notifications, 300, UInt64(3_000_000), false),  // throughput 0.30 < 0.40
        (LoadScenario.notifications, 500, UInt64(5_000_000), false),  // p99 2.5x > 2x
        (LoadScenario.reads, 700, UInt64(3_000_000), true),
        (LoadScenario.reads, 700, UInt64(3_200_000), false),  // p99 1.6x > 1.5x
    ])
    func targetsAreJudgedOnBothRatios(scenario: LoadScenario, requests: Int, p99: UInt64, met: Bool) {
        let comparison = LoadComparison(scenario: scenario, trivial: trivial, measured: summary(requests: requests, p99: p99))
        #expect(comparison.meetsTarget == met)
        #expect(comparison.render().contains(met ? ": met)" : ": MISSED)"))
    }

    @Test func theTableHasTheTrivialRowThenTheScenarioRowThenTheRatios() {
        let comparison = LoadComparison(scenario: .mixed, trivial: trivial, measured: summary(requests: 800, p99: 2_000_000))
        let lines = comparison.render().split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("route"))
        #expect(lines[1].hasPrefix(LoadComparison.trivialLabel))
        #expect(lines[1].contains("1000.0"))
        #expect(lines[1].contains("2.00"))
        #expect(lines[2].hasPrefix("mixed"))
        #expect(lines[2].contains("800.0"))
        #expect(lines[3] == "throughput 0.80 of trivial, p99 1.00x trivial (no target)")
        #expect(comparison.meetsTarget == nil)
    }

    @Test func mixedKeepsEightyFifteenFive() {
        let kinds = (0..<100).map { LoadScenario.mixed.kind(ofRequest: $0) }
        #expect(kinds.filter { $0 == .read }.count == 80)
        #expect(kinds.filter { $0 == .notification }.count == 15)
        #expect(kinds.filter { $0 == .transaction }.count == 5)
    }

    @Test(arguments: [(UInt64(699_000_000), true), (UInt64(700_000_000), true), (UInt64(700_000_001), false)])
    func retentionIsJudgedOnItsSlowestAnswerAgainstApplesDeadline(slowest: UInt64, met: Bool) {
        let measured = LatencySummary(latencies: Array(repeating: 5_000_000, count: 999) + [slowest], errors: 0, seconds: 1)
        let comparison = LoadComparison(scenario: .retention, trivial: trivial, measured: measured)
        #expect(comparison.meetsDeadline == met)
        let last = comparison.render().split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("slowest answer \(String(format: "%.2f", Double(slowest) / 1_000_000)) ms, p99 5.00 ms; Apple waits 700.00 ms: "))
        #expect(last.hasSuffix(met ? "every answer in time" : "MISSED"))
        #expect(LoadScenario.retention.kind(ofRequest: 7) == .retentionRequest)
    }

    @Test func onlyRetentionHasADeadline() {
        for scenario in LoadScenario.allCases where scenario != .retention {
            let comparison = LoadComparison(scenario: scenario, trivial: trivial, measured: summary(requests: 500, p99: 3_000_000))
            #expect(comparison.meetsDeadline == nil)
            #expect(!comparison.render().contains("Apple waits"))
        }
    }
}

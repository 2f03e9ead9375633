import PerennialCore
import Testing

@Suite struct ExperimentStatisticsTests {
    typealias Sample = ExperimentStatistics.Sample

    @Test func theSameCountsGiveTheSameAnswer() {
        let samples = [Sample(variantID: "a", exposed: 200, converted: 60, revenues: []), Sample(variantID: "b", exposed: 200, converted: 40, revenues: [])]
        #expect(ExperimentStatistics().estimates(samples) == ExperimentStatistics().estimates(samples))
    }

    @Test func theBetterVariantIsProbablyBest() throws {
        let estimates = ExperimentStatistics().estimates([
            Sample(variantID: "a", exposed: 200, converted: 60, revenues: []), Sample(variantID: "b", exposed: 200, converted: 40, revenues: []),
        ])
        #expect(estimates.map(\.variantID) == ["a", "b"])
        #expect(abs(estimates[0].probabilityBest + estimates[1].probabilityBest - 1) < 1e-9)
        // P(Beta(61,141) > Beta(41,161)) is about 0.986 (normal approximation of the difference).
        #expect(estimates[0].probabilityBest > 0.97 && estimates[0].probabilityBest < 0.996, "\(estimates[0].probabilityBest)")
        #expect(estimates[0].conversionRate == 0.3)
    }

    @Test func equalVariantsShareTheProbability() {
        let estimates = ExperimentStatistics().estimates((0..<3).map { Sample(variantID: "\($0)", exposed: 500, converted: 100, revenues: []) })
        for estimate in estimates { #expect(abs(estimate.probabilityBest - 1.0 / 3) < 0.02, "\(estimate.probabilityBest)") }
    }

    @Test func theCredibleIntervalMatchesTheBetaPosterior() {
        // Beta(31, 71): mean 0.304, standard deviation 0.0455; its 95 % interval is about 0.219…0.397.
        let estimate = ExperimentStatistics().estimates([Sample(variantID: "a", exposed: 100, converted: 30, revenues: [])])[0]
        #expect(abs(estimate.conversionInterval.lowerBound - 0.219) < 0.01, "\(estimate.conversionInterval)")
        #expect(abs(estimate.conversionInterval.upperBound - 0.397) < 0.01, "\(estimate.conversionInterval)")
        #expect(estimate.probabilityBest == 1)
    }

    @Test func withoutExposuresThePosteriorIsThePrior() {
        let estimate = ExperimentStatistics().estimates([Sample(variantID: "a", exposed: 0, converted: 0, revenues: [])])[0]
        #expect(estimate.conversionRate == nil && estimate.revenuePerExposedUser == nil && estimate.revenueInterval == nil)
        #expect(abs(estimate.conversionInterval.lowerBound - 0.025) < 0.01 && abs(estimate.conversionInterval.upperBound - 0.975) < 0.01)
    }

    @Test func revenuePerUserHasTheNormalInterval() throws {
        // Mean 5, sample standard deviation √(100/3) ≈ 5.774 over 4 users: 5 ± 1.96 · 5.774 / 2.
        let estimate = ExperimentStatistics().estimates([Sample(variantID: "a", exposed: 4, converted: 2, revenues: [0, 0, 10, 10])])[0]
        #expect(estimate.revenuePerExposedUser == 5)
        let interval = try #require(estimate.revenueInterval)
        #expect(abs(interval.lowerBound - (5 - 1.96 * (100.0 / 3).squareRoot() / 2)) < 1e-9)
        #expect(abs(interval.upperBound - (5 + 1.96 * (100.0 / 3).squareRoot() / 2)) < 1e-9)
        #expect(ExperimentStatistics().estimates([Sample(variantID: "a", exposed: 1, converted: 1, revenues: [9_990])])[0].revenueInterval == nil)
    }

    @Test func anotherSeedMovesTheProbabilityOnlyByNoise() {
        let samples = [Sample(variantID: "a", exposed: 100, converted: 25, revenues: []), Sample(variantID: "b", exposed: 100, converted: 20, revenues: [])]
        let first = ExperimentStatistics(seed: 1).estimates(samples)[0].probabilityBest
        let second = ExperimentStatistics(seed: 2).estimates(samples)[0].probabilityBest
        #expect(first != second && abs(first - second) < 0.02, "\(first) \(second)")
    }
}

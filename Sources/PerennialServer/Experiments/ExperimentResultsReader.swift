import Foundation
import PerennialCore
import PerennialStorage

/// An experiment's results, computed from what is stored now: each exposed user's first exposure
/// and merged records (``PerennialCore/ExperimentOutcome``), so they are the same whatever order
/// the evidence arrived in, and the uncertainty from ``PerennialCore/ExperimentStatistics``.
struct ExperimentResultsReader: Sendable {
    let dependencies: ServerDependencies
    var statistics = ExperimentStatistics()

    func results(of experiment: ExperimentDefinition, app: AppContext) async throws -> ExperimentResults {
        let storage = dependencies.storage
        let exposures = try await storage.exposures(experimentID: experiment.id, appBundleID: app.bundleID)
        let limit = dependencies.limits.maxExperimentResultUsers
        guard exposures.count <= limit else { throw ExperimentError.tooManyExposures(count: exposures.count, limit: limit) }
        let settings = app.analytics
        var tallies = Dictionary(uniqueKeysWithValues: experiment.variants.map { ($0.id, Tally()) })
        for exposure in exposures {
            guard let variant = ExperimentAssignment.variant(of: exposure.user.rawValue, in: experiment) else { continue }
            let records = try await storage.records(ownedBy: exposure.user, appBundleID: app.bundleID)
            let outcome = ExperimentOutcome(of: records, exposedAt: exposure.firstExposedAt, catalog: app.catalog)
            var revenue: Int64 = 0
            for (currency, amount) in outcome.revenue {
                if let converted = settings.convert(amount, from: currency) {
                    revenue += converted
                } else {
                    tallies[variant.id]?.unconverted.insert(currency)
                }
            }
            tallies[variant.id]?.add(outcome, revenue: revenue)
        }
        let samples = experiment.variants.map { variant in
            let tally = tallies[variant.id] ?? Tally()
            return ExperimentStatistics.Sample(variantID: variant.id, exposed: tally.revenues.count, converted: tally.conversions, revenues: tally.revenues)
        }
        let estimates = statistics.estimates(samples)
        let variants = zip(experiment.variants, estimates).map { variant, estimate in
            let tally = tallies[variant.id] ?? Tally()
            return ExperimentResults.Variant(
                id: variant.id, offeringId: variant.offeringID, weight: variant.weight, exposed: tally.revenues.count, trials: tally.trials,
                conversions: tally.conversions, conversionRate: estimate.conversionRate,
                conversionInterval: ExperimentResults.Interval(estimate.conversionInterval), probabilityBest: estimate.probabilityBest,
                revenueMilliUnits: tally.revenues.reduce(0, +), revenuePerExposedUserMilliUnits: estimate.revenuePerExposedUser,
                revenuePerExposedUserInterval: estimate.revenueInterval.map(ExperimentResults.Interval.init),
                chargesPriceUnknown: tally.chargesPriceUnknown, unconvertedCurrencies: tally.unconverted.sorted())
        }
        return ExperimentResults(
            experiment: Experiment(experiment), currency: settings.reportingCurrency,
            method: ExperimentResults.Method(draws: statistics.draws, seed: statistics.seed), variants: variants)
    }

    /// What one variant's exposed users did.
    private struct Tally {
        var trials = 0
        var conversions = 0
        /// One per exposed user, in the reporting currency.
        var revenues: [Int64] = []
        var chargesPriceUnknown = 0
        var unconverted: Set<String> = []

        mutating func add(_ outcome: ExperimentOutcome, revenue: Int64) {
            if outcome.startedTrial { trials += 1 }
            if outcome.converted { conversions += 1 }
            revenues.append(revenue)
            chargesPriceUnknown += outcome.chargesPriceUnknown
        }
    }
}

import Foundation

/// `GET /admin/v1/apps/{appId}/experiments/{experimentId}/results` (docs/experiments.md, "Results").
struct ExperimentResults: Encodable, Sendable {
    /// A 95 % interval.
    struct Interval: Encodable, Sendable, Equatable {
        var low: Double
        var high: Double

        init(_ range: ClosedRange<Double>) {
            low = range.lowerBound
            high = range.upperBound
        }
    }

    /// How the uncertainty was computed, so a reader can reproduce it.
    struct Method: Encodable, Sendable {
        var conversion = "Beta(1 + conversions, 1 + exposed - conversions) posterior per variant; 95% credible interval and probability to be best from Monte Carlo draws"
        var revenuePerExposedUser = "mean with the normal approximation's 95% interval, mean ± 1.96 · s / √n"
        var draws: Int
        var seed: UInt64
    }

    struct Variant: Encodable, Sendable {
        var id: String
        var offeringId: String
        var weight: Int
        /// Users whose first exposure was recorded.
        var exposed: Int
        /// Of them, those who started a free trial after their exposure.
        var trials: Int
        /// Of them, those charged for a paid period after their exposure.
        var conversions: Int
        var conversionRate: Double?
        var conversionInterval: Interval
        var probabilityBest: Double
        /// Their charges after exposure less refunds, milli-units of `currency`.
        var revenueMilliUnits: Int64
        var revenuePerExposedUserMilliUnits: Double?
        var revenuePerExposedUserInterval: Interval?
        /// Charges of unknown price: counted as conversions, left out of the revenue.
        var chargesPriceUnknown: Int
        /// Currencies without an exchange rate, left out of the revenue.
        var unconvertedCurrencies: [String]
    }

    var experiment: Experiment
    /// The app's reporting currency (`analytics.reportingCurrency`).
    var currency: String
    var method: Method
    /// In the experiment's order.
    var variants: [Variant]
}

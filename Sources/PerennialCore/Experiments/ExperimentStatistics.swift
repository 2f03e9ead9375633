import Foundation

/// The uncertainty of an experiment's figures, stated so an operator can check it by hand
/// (docs/experiments.md, "Uncertainty"), and deterministic: the same counts always give the same
/// answer, on every instance and in every test.
///
/// - Conversion: each variant's rate has the posterior Beta(1 + k, 1 + n − k) (a uniform prior,
///   k converted of n exposed). `draws` samples of every posterior, from one
///   ``SeededRandomNumberGenerator`` seeded with `seed`, give the 95 % credible interval (the 2.5th
///   and 97.5th percentiles) and the probability each variant is best (the share of draws in which
///   its sample is the highest).
/// - Revenue per exposed user: the mean of the users' revenues with the normal approximation's
///   95 % interval, mean ± 1.96 · s / √n (s the sample standard deviation); none below two users.
public struct ExperimentStatistics: Sendable {
    /// What one variant observed.
    public struct Sample: Hashable, Sendable {
        public var variantID: String
        public var exposed: Int
        public var converted: Int
        /// Each exposed user's revenue after exposure, milli-units.
        public var revenues: [Int64]

        public init(variantID: String, exposed: Int, converted: Int, revenues: [Int64]) {
            self.variantID = variantID
            self.exposed = exposed
            self.converted = converted
            self.revenues = revenues
        }
    }

    /// What is known of one variant.
    public struct Estimate: Hashable, Sendable {
        public var variantID: String
        /// converted / exposed; nil without exposures.
        public var conversionRate: Double?
        public var conversionInterval: ClosedRange<Double>
        public var probabilityBest: Double
        /// Milli-units; nil without exposures.
        public var revenuePerExposedUser: Double?
        /// Milli-units; nil below two exposed users.
        public var revenueInterval: ClosedRange<Double>?
    }

    /// Monte Carlo draws per variant; 20,000 keeps the probability's error below 0.5 percentage points.
    public var draws: Int
    public var seed: UInt64

    public init(draws: Int = 20_000, seed: UInt64 = 0x5045_5245_4E4E_4941) {
        self.draws = draws
        self.seed = seed
    }

    /// The estimates, in the order of `samples`.
    public func estimates(_ samples: [Sample]) -> [Estimate] {
        var generator = SeededRandomNumberGenerator(seed: seed)
        let draws = max(1, draws)
        var sampled = samples.map { sample in
            (0..<draws).map { _ in Self.beta(Double(1 + sample.converted), Double(1 + sample.exposed - sample.converted), using: &generator) }
        }
        var wins = [Int](repeating: 0, count: samples.count)
        for draw in 0..<draws {
            var best = 0
            for variant in samples.indices where sampled[variant][draw] > sampled[best][draw] { best = variant }
            if !samples.isEmpty { wins[best] += 1 }
        }
        return samples.indices.map { index in
            let sample = samples[index]
            sampled[index].sort()
            let low = sampled[index][Int(Double(draws - 1) * 0.025)]
            let high = sampled[index][Int(Double(draws - 1) * 0.975)]
            let revenue = Self.meanInterval(sample.revenues)
            return Estimate(
                variantID: sample.variantID, conversionRate: sample.exposed > 0 ? Double(sample.converted) / Double(sample.exposed) : nil,
                conversionInterval: low...high, probabilityBest: Double(wins[index]) / Double(draws),
                revenuePerExposedUser: revenue.mean, revenueInterval: revenue.interval)
        }
    }

    /// The mean and its normal-approximation 95 % interval.
    static func meanInterval(_ values: [Int64]) -> (mean: Double?, interval: ClosedRange<Double>?) {
        guard !values.isEmpty else { return (nil, nil) }
        let count = Double(values.count)
        let mean = values.reduce(0.0) { $0 + Double($1) } / count
        guard values.count > 1 else { return (mean, nil) }
        let variance = values.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / (count - 1)
        let half = 1.96 * (variance / count).squareRoot()
        return (mean, (mean - half)...(mean + half))
    }

    /// A Beta(a, b) sample as X / (X + Y) of two gamma samples.
    static func beta(_ a: Double, _ b: Double, using generator: inout SeededRandomNumberGenerator) -> Double {
        let x = gamma(a, using: &generator)
        let y = gamma(b, using: &generator)
        return x / (x + y)
    }

    /// A Gamma(shape, 1) sample for shape ≥ 1 (Marsaglia and Tsang, 2000).
    static func gamma(_ shape: Double, using generator: inout SeededRandomNumberGenerator) -> Double {
        let d = shape - 1.0 / 3.0
        let c = 1.0 / (9.0 * d).squareRoot()
        while true {
            var x: Double
            var v: Double
            repeat {
                x = normal(using: &generator)
                v = 1 + c * x
            } while v <= 0
            v = v * v * v
            let u = uniform(using: &generator)
            if u < 1 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1 - v + log(v)) { return d * v }
        }
    }

    /// A standard normal sample (Box–Muller).
    static func normal(using generator: inout SeededRandomNumberGenerator) -> Double {
        let u = uniform(using: &generator)
        let v = uniform(using: &generator)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// Uniform in (0, 1]: never 0, whose logarithm is infinite.
    static func uniform(using generator: inout SeededRandomNumberGenerator) -> Double {
        Double((generator.next() >> 11) + 1) * 0x1p-53
    }
}

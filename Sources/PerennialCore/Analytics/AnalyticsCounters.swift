public import Foundation

/// Counter values by key: what one subscription contributes (``SubscriptionFacts``), the change
/// an apply makes (new contribution minus old), or the sum over every subscription (a rebuild).
///
/// A plain sum, so that adding the change of every apply gives exactly what a rebuild sums from
/// the records: the order in which evidence arrived cannot matter.
public struct AnalyticsCounters: Hashable, Sendable {
    /// Where a counter is kept.
    public struct Key: Hashable, Sendable {
        public var environment: AppStoreEnvironment
        public var metric: AnalyticsMetric
        /// Days since 1970-01-01, UTC.
        public var day: Int
        public var productID: String
        /// Three-letter storefront; empty when the evidence does not say.
        public var storefront: String
        /// ISO 4217 code for amounts, empty for counts.
        public var currency: String

        public init(environment: AppStoreEnvironment, metric: AnalyticsMetric, day: Int, productID: String, storefront: String, currency: String) {
            self.environment = environment
            self.metric = metric
            self.day = day
            self.productID = productID
            self.storefront = storefront
            self.currency = currency
        }
    }

    public private(set) var values: [Key: Int64] = [:]

    public init() {}

    public var isEmpty: Bool { values.isEmpty }

    /// Adds `amount` to a counter; a counter back at zero is dropped, so equal sums compare equal.
    public mutating func add(_ amount: Int64, to key: Key) {
        guard amount != 0 else { return }
        let sum = values[key, default: 0] + amount
        values[key] = sum == 0 ? nil : sum
    }

    /// Adds every counter of `other`: what a sum over several subscriptions, computed in parts, is.
    public mutating func add(_ other: AnalyticsCounters) {
        for (key, amount) in other.values { add(amount, to: key) }
    }

    /// The day (days since 1970-01-01 UTC) an instant falls on.
    public static func day(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// The first instant of a day.
    public static func start(ofDay day: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(day) * 86_400)
    }
}

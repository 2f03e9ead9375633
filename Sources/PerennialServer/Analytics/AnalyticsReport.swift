public import Foundation

/// The answer to a ``AnalyticsQuery``: one series per segment, the totals of the range and of the
/// range just before it (for "change over the previous period"), and the cohort table.
public struct AnalyticsReport: Sendable, Hashable {
    /// One bucket of a series.
    public struct Point: Sendable, Hashable {
        /// The bucket's first instant (00:00 UTC of its first day).
        public var start: Date
        /// The instant after its last day (for today's bucket, its figures are at ``AnalyticsReport/asOf``).
        public var end: Date
        public var figures: AnalyticsFigures

        public init(start: Date, end: Date, figures: AnalyticsFigures) {
            self.start = start
            self.end = end
            self.figures = figures
        }
    }

    /// One series: the whole app (`key` nil) or one product, group or storefront.
    public struct Segment: Sendable, Hashable {
        /// The product id, subscription group id or storefront; nil for the overall series.
        public var key: String?
        public var points: [Point]
        /// The figures of the whole range as one bucket.
        public var total: AnalyticsFigures

        public init(key: String?, points: [Point], total: AnalyticsFigures) {
            self.key = key
            self.points = points
            self.total = total
        }
    }

    /// The query, its range ending today at the latest (``Analytics/report(_:)`` clips it).
    public var query: AnalyticsQuery
    /// The instant the report was taken at: the point-in-time figures of today's bucket are at
    /// this instant, and its flows count what happened up to it.
    public var asOf: Date
    /// The app's reporting currency: every amount is in its milli-units.
    public var currency: String
    /// Overall first, then segments sorted by key (only the overall one without a breakdown).
    public var segments: [Segment]
    /// The overall figures of the range of the same length just before the query's range.
    public var previousTotal: AnalyticsFigures
    public var cohorts: [CohortRow]
    /// Renewals due in the range by the period's number in its run, and how many came.
    public var renewals: [RenewalRow]
    /// The refund requests Apple asked about in the range and their outcomes.
    public var refundRequests: RefundRequestFigures
    /// Currencies with amounts but no exchange rate to ``currency``: left out of every sum.
    public var unconvertedCurrencies: [String]

    public init(
        query: AnalyticsQuery, asOf: Date, currency: String, segments: [Segment], previousTotal: AnalyticsFigures, cohorts: [CohortRow],
        renewals: [RenewalRow], refundRequests: RefundRequestFigures = RefundRequestFigures(), unconvertedCurrencies: [String] = []
    ) {
        self.renewals = renewals
        self.refundRequests = refundRequests
        self.query = query
        self.asOf = asOf
        self.currency = currency
        self.unconvertedCurrencies = unconvertedCurrencies
        self.segments = segments
        self.previousTotal = previousTotal
        self.cohorts = cohorts
    }

    /// The overall series.
    public var overall: Segment { segments.first { $0.key == nil } ?? Segment(key: nil, points: [], total: AnalyticsFigures()) }
}

/// Of the renewals due in a range at the end of the `period`-th paid period of a run (the last
/// row counts that period and every later one), how many came.
public struct RenewalRow: Sendable, Hashable {
    public var period: Int
    public var due: Int
    public var renewed: Int

    public init(period: Int, due: Int, renewed: Int) {
        self.period = period
        self.due = due
        self.renewed = renewed
    }

    /// Renewed over due; nil when none was due.
    public var rate: Double? { due == 0 ? nil : Double(renewed) / Double(due) }
}

/// Subscriptions whose first paid period started in one calendar month, and how many were still
/// paid 1…12 months later.
public struct CohortRow: Sendable, Hashable {
    /// 00:00 UTC of the month's first day.
    public var month: Date
    public var size: Int
    /// `retained[k-1]`: subscriptions paid at their start plus k months; nil while that instant
    /// has not come for every member (the month's end plus k months is after the report's "now").
    public var retained: [Int?]
    /// `revenue[k-1]`: the cohort's gross revenue less refunds in its first k months, milli-units
    /// of the report's currency (realized LTV is this over ``size``); nil as ``retained``.
    public var revenue: [Int64?]

    public init(month: Date, size: Int, retained: [Int?], revenue: [Int64?]) {
        self.month = month
        self.size = size
        self.retained = retained
        self.revenue = revenue
    }

    /// Realized LTV after `months`: revenue per member, milli-units rounded down; nil when
    /// unknown or the cohort is empty.
    public func lifetimeValue(after months: Int) -> Int64? {
        guard size > 0, months >= 1, months <= revenue.count, let total = revenue[months - 1] else { return nil }
        return total / Int64(size)
    }

    /// `retained[k-1] / size`, nil when unknown or the cohort is empty.
    public func share(after months: Int) -> Double? {
        guard size > 0, months >= 1, months <= retained.count, let count = retained[months - 1] else { return nil }
        return Double(count) / Double(size)
    }
}

import Foundation
import PerennialCore

/// `GET /admin/v1/apps/{appId}/metrics` as JSON (docs/openapi.yaml `AnalyticsResponse`): money in
/// milli-units of `currency`, days as `YYYY-MM-DD` (UTC), `end` exclusive.
struct AnalyticsResponse: Encodable {
    struct Figures: Encodable {
        let figures: AnalyticsFigures

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FieldKey.self)
            for field in AnalyticsFigures.fields {
                switch field.value(figures) {
                case .integer(let value): try container.encode(value, forKey: FieldKey(field.name))
                case .optional(let value): try container.encode(value, forKey: FieldKey(field.name))
                case .rate(let value): try container.encode(value, forKey: FieldKey(field.name))
                }
            }
        }
    }

    struct Point: Encodable {
        let start: String
        let end: String
        let figures: Figures
    }

    struct Segment: Encodable {
        /// Absent for the overall series.
        let key: String?
        let points: [Point]
        let total: Figures
    }

    struct Cohort: Encodable {
        let month: String
        let size: Int
        let retained: [Int?]
        let revenue: [Int64?]
    }

    struct Renewal: Encodable {
        let period: Int
        let due: Int
        let renewed: Int
        let rate: Double?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FieldKey.self)
            try container.encode(period, forKey: FieldKey("period"))
            try container.encode(due, forKey: FieldKey("due"))
            try container.encode(renewed, forKey: FieldKey("renewed"))
            try container.encode(rate, forKey: FieldKey("rate"))
        }
    }

    let app: String
    let environment: String
    let from: String
    let through: String
    let asOf: Date
    let granularity: String
    let breakdown: String
    let currency: String
    let unconvertedCurrencies: [String]
    let segments: [Segment]
    let previousTotal: Figures
    let cohorts: [Cohort]
    let renewals: [Renewal]
    let refundRequests: RefundRequests

    struct RefundRequests: Encodable {
        let figures: RefundRequestFigures

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FieldKey.self)
            for (name, value) in [
                ("requested", figures.requested), ("answered", figures.answered), ("unanswered", figures.unanswered),
                ("refunded", figures.refunded), ("declined", figures.declined), ("undecided", figures.undecided),
            ] {
                try container.encode(value, forKey: FieldKey(name))
            }
            try container.encode(figures.refundRate, forKey: FieldKey("refundRate"))
        }
    }

    init(_ report: AnalyticsReport) {
        let query = report.query
        app = query.appID
        environment = query.environment.rawValue
        from = AnalyticsDay.string(query.from)
        through = AnalyticsDay.string(query.through)
        asOf = report.asOf
        granularity = query.granularity.rawValue
        breakdown = query.breakdown.rawValue
        currency = report.currency
        unconvertedCurrencies = report.unconvertedCurrencies
        segments = report.segments.map { segment in
            Segment(
                key: segment.key,
                points: segment.points.map {
                    Point(start: AnalyticsDay.string($0.start), end: AnalyticsDay.string($0.end), figures: Figures(figures: $0.figures))
                }, total: Figures(figures: segment.total))
        }
        previousTotal = Figures(figures: report.previousTotal)
        cohorts = report.cohorts.map { Cohort(month: AnalyticsDay.string($0.month), size: $0.size, retained: $0.retained, revenue: $0.revenue) }
        refundRequests = RefundRequests(figures: report.refundRequests)
        renewals = report.renewals.map { Renewal(period: $0.period, due: $0.due, renewed: $0.renewed, rate: $0.rate) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        try container.encode(app, forKey: FieldKey("app"))
        try container.encode(environment, forKey: FieldKey("environment"))
        try container.encode(from, forKey: FieldKey("from"))
        try container.encode(through, forKey: FieldKey("through"))
        try container.encode(asOf, forKey: FieldKey("asOf"))
        try container.encode(granularity, forKey: FieldKey("granularity"))
        try container.encode(breakdown, forKey: FieldKey("breakdown"))
        try container.encode(currency, forKey: FieldKey("currency"))
        try container.encode(unconvertedCurrencies, forKey: FieldKey("unconvertedCurrencies"))
        try container.encode(segments, forKey: FieldKey("segments"))
        try container.encode(previousTotal, forKey: FieldKey("previousTotal"))
        try container.encode(cohorts, forKey: FieldKey("cohorts"))
        try container.encode(renewals, forKey: FieldKey("renewals"))
        try container.encode(refundRequests, forKey: FieldKey("refundRequests"))
    }
}

/// A key named at run time (the figures' names come from ``AnalyticsFigures/fields``).
struct FieldKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

import Foundation
public import PerennialCore
public import PerennialStorage

/// The figures of docs/analytics.md, read from the counters storage keeps beside the records
/// (never recomputed from every record on a request): what the analytics API, the dashboard and
/// `/metrics` ask.
public struct Analytics: Sendable {
    public let apps: AppRegistry
    public let storage: any AnalyticsStorage
    public let clock: any TimeSource

    /// The longest range a report covers: ten years of days.
    public static let maximumDays = 3_660

    public init(apps: AppRegistry, storage: any AnalyticsStorage, clock: any TimeSource) {
        self.apps = apps
        self.storage = storage
        self.clock = clock
    }

    /// The report for `query`, judged at the server's "now" (cohort cells after it are unknown).
    ///
    /// - Throws: ``AnalyticsError`` for an unknown app or a bad range; ``StorageError`` when the
    ///   database fails.
    public func report(_ query: AnalyticsQuery) async throws -> AnalyticsReport {
        guard let app = apps.app(id: query.appID) else { throw AnalyticsError.unknownApp(query.appID) }
        let fromDay = AnalyticsCounters.day(of: query.from)
        let throughDay = AnalyticsCounters.day(of: query.through)
        guard fromDay <= throughDay else {
            // Both days, since either may be a default (through is today, from 30 days before it).
            throw AnalyticsError.invalidRange("the range ends before it starts: from \(AnalyticsDay.string(query.from)), through \(AnalyticsDay.string(query.through))")
        }
        let length = throughDay - fromDay + 1
        guard length <= Self.maximumDays else {
            throw AnalyticsError.invalidRange("the range spans \(length) days; at most \(Self.maximumDays) are reported at once")
        }
        let previousFrom = fromDay - length
        let firstCohort = UTCCalendar.monthStart(of: fromDay)
        let readFrom = min(previousFrom, firstCohort)
        let rows = try await storage.analyticsCounters(
            AnalyticsCounterRequest(
                appBundleID: app.bundleID, environment: query.environment,
                dimension: query.breakdown == .storefront ? .storefront : .product, fromDay: readFrom, throughDay: throughDay))

        let settings = app.analytics
        var unconverted = Set<String>()
        var tallies: [String?: AnalyticsTally] = [:]
        var cohortCounts: [Int: [Int64]] = [:]
        for row in rows {
            var value = row.value
            if !row.currency.isEmpty {
                guard let converted = settings.convert(value, from: row.currency) else {
                    unconverted.insert(row.currency)
                    continue
                }
                value = converted
            }
            if row.metric == .cohortSize || row.metric.cohortMonths != nil {
                if row.day >= firstCohort {
                    cohortCounts[row.day, default: Array(repeating: 0, count: 13)][row.metric.cohortMonths ?? 0] += value
                }
                continue
            }
            tallies[nil, default: AnalyticsTally(firstDay: readFrom - 1, lastDay: throughDay)].add(value, row.metric, day: row.day)
            if query.breakdown != .none {
                let key = segment(of: row, breakdown: query.breakdown, catalog: app.catalog)
                tallies[key, default: AnalyticsTally(firstDay: readFrom - 1, lastDay: throughDay)].add(value, row.metric, day: row.day)
            }
        }

        let sealed = tallies.mapValues { $0.sealed() }
        let buckets = Self.buckets(from: fromDay, through: throughDay, granularity: query.granularity)
        let smallBusiness = settings.smallBusinessProgram
        var segments: [AnalyticsReport.Segment] = []
        for key in sealed.keys.sorted(by: { ($0 == nil ? 0 : 1, $0 ?? "") < ($1 == nil ? 0 : 1, $1 ?? "") }) {
            guard let tally = sealed[key] else { continue }
            segments.append(
                AnalyticsReport.Segment(
                    key: key,
                    points: buckets.map { bucket in
                        AnalyticsReport.Point(
                            start: AnalyticsCounters.start(ofDay: bucket.lowerBound), end: AnalyticsCounters.start(ofDay: bucket.upperBound),
                            figures: tally.figures(from: bucket.lowerBound, to: bucket.upperBound, smallBusiness: smallBusiness))
                    },
                    total: tally.figures(from: fromDay, to: throughDay + 1, smallBusiness: smallBusiness)))
        }
        if !segments.contains(where: { $0.key == nil }) {
            let empty = AnalyticsTally(firstDay: readFrom - 1, lastDay: throughDay).sealed()
            segments.insert(
                AnalyticsReport.Segment(
                    key: nil,
                    points: buckets.map {
                        AnalyticsReport.Point(
                            start: AnalyticsCounters.start(ofDay: $0.lowerBound), end: AnalyticsCounters.start(ofDay: $0.upperBound),
                            figures: empty.figures(from: $0.lowerBound, to: $0.upperBound, smallBusiness: smallBusiness))
                    }, total: AnalyticsFigures()), at: 0)
        }
        let previousTotal = sealed[nil].map { $0.figures(from: previousFrom, to: fromDay, smallBusiness: smallBusiness) } ?? AnalyticsFigures()
        return AnalyticsReport(
            query: query, currency: settings.reportingCurrency, segments: segments, previousTotal: previousTotal,
            cohorts: cohorts(cohortCounts, from: firstCohort, through: throughDay), unconvertedCurrencies: unconverted.sorted())
    }

    /// The segment a counter row belongs to under `breakdown` (a product's group from the catalog).
    private func segment(of row: AnalyticsCounterRow, breakdown: AnalyticsBreakdown, catalog: Catalog) -> String {
        switch breakdown {
        case .none, .product, .storefront: row.segment
        case .subscriptionGroup: catalog.product(id: row.segment)?.subscriptionGroupID ?? ""
        }
    }

    /// One row per month of the range; a cell is known once its instant has passed for every
    /// member (the month's end plus k months).
    private func cohorts(_ counts: [Int: [Int64]], from firstMonth: Int, through lastDay: Int) -> [CohortRow] {
        let today = AnalyticsCounters.day(of: clock.now)
        var rows: [CohortRow] = []
        var month = firstMonth
        while month <= lastDay {
            let values = counts[month] ?? Array(repeating: 0, count: 13)
            rows.append(
                CohortRow(
                    month: AnalyticsCounters.start(ofDay: month), size: Int(values[0]),
                    retained: (1...12).map { months in
                        UTCCalendar.month(months + 1, after: month) <= today ? Int(values[months]) : nil
                    }))
            month = UTCCalendar.month(1, after: month)
        }
        return rows
    }

    /// The buckets of the range: whole days, ISO weeks or calendar months, the first and last
    /// clipped to the range.
    static func buckets(from fromDay: Int, through throughDay: Int, granularity: AnalyticsGranularity) -> [Range<Int>] {
        var buckets: [Range<Int>] = []
        var start = fromDay
        while start <= throughDay {
            let next: Int
            switch granularity {
            case .day: next = start + 1
            case .week: next = UTCCalendar.weekStart(of: start) + 7
            case .month: next = UTCCalendar.month(1, after: UTCCalendar.monthStart(of: start))
            }
            buckets.append(start..<min(next, throughDay + 1))
            start = next
        }
        return buckets
    }
}

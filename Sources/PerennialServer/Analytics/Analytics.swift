import Foundation
public import PerennialCore
public import PerennialStorage

/// The figures of docs/analytics.md, read from the counters storage keeps beside the records
/// (never recomputed from every record on a request): what the analytics API, the dashboard and
/// `/metrics` ask.
public struct Analytics: Sendable {
    public let apps: AppRegistry
    public let storage: any AnalyticsStorage & ConsumptionStore
    public let clock: any TimeSource

    /// The longest range a report covers: ten years of days.
    public static let maximumDays = 3_660

    public init(apps: AppRegistry, storage: any AnalyticsStorage & ConsumptionStore, clock: any TimeSource) {
        self.apps = apps
        self.storage = storage
        self.clock = clock
    }

    /// The report for `query` at the server's "now": a range ends today at the latest, today's
    /// figures are those of this instant (the changes the records foresee for the hours still to
    /// come are left out), and cohort cells after it are unknown.
    ///
    /// - Throws: ``AnalyticsError`` for an unknown app, a bad range or a bad filter;
    ///   ``StorageError`` when the database fails.
    public func report(_ query: AnalyticsQuery) async throws -> AnalyticsReport {
        guard let app = apps.app(id: query.appID) else { throw AnalyticsError.unknownApp(query.appID) }
        let filter = try query.filter.validated(for: app.catalog)
        let now = clock.now
        let today = AnalyticsCounters.day(of: now)
        let fromDay = AnalyticsCounters.day(of: query.from)
        guard fromDay <= AnalyticsCounters.day(of: query.through) else {
            // Both days, since either may be a default (through is today, from 30 days before it).
            throw AnalyticsError.invalidRange("the range ends before it starts: from \(AnalyticsDay.string(query.from)), through \(AnalyticsDay.string(query.through))")
        }
        guard fromDay <= today else {
            throw AnalyticsError.invalidRange(
                "the range starts after today (\(AnalyticsDay.string(now))): figures are of what has happened, from \(AnalyticsDay.string(query.from))")
        }
        let throughDay = min(AnalyticsCounters.day(of: query.through), today)
        var query = query
        query.through = AnalyticsCounters.start(ofDay: throughDay)
        query.filter = filter
        let length = throughDay - fromDay + 1
        guard length <= Self.maximumDays else {
            throw AnalyticsError.invalidRange("the range spans \(length) days; at most \(Self.maximumDays) are reported at once")
        }
        let previousFrom = fromDay - length
        let firstCohort = UTCCalendar.monthStart(of: fromDay)
        let readFrom = min(previousFrom, firstCohort)
        let dimension: AnalyticsDimension = query.breakdown == .storefront || query.breakdown == .offerType || filter.needsCombined ? .combined : .product
        var rows = try await storage.analyticsCounters(
            AnalyticsCounterRequest(appBundleID: app.bundleID, environment: query.environment, dimension: dimension, fromDay: readFrom, throughDay: throughDay))
        if throughDay == today {
            // Today's counters hold the whole day; what is foreseen for its hours still to come
            // (the current one included) is taken back out.
            let scheduled = try await storage.analyticsCounters(
                AnalyticsCounterRequest(
                    appBundleID: app.bundleID, environment: query.environment, dimension: dimension, fromDay: AnalyticsCounters.hour(of: now),
                    throughDay: AnalyticsCounters.hour(of: AnalyticsCounters.start(ofDay: today + 1)) - 1, summingEarlierChanges: false))
            for row in scheduled {
                guard let metric = row.metric.scheduledMetric else { continue }
                rows.append(AnalyticsCounterRow(metric: metric, day: today, segment: row.segment, currency: row.currency, value: -row.value))
            }
        }

        let settings = app.analytics
        var unconverted = Set<String>()
        var tallies: [String?: AnalyticsTally] = [:]
        var cohortCounts: [Int: [Int64]] = [:]
        // An overall report of everything needs no row's place: no string is parsed or copied.
        let placesRows = query.breakdown != .none || filter != AnalyticsFilter()
        for row in rows {
            let place = placesRows ? Self.place(of: row, in: dimension) : nil
            if placesRows {
                guard let place, filter.contains(place) else { continue }
            }
            var value = row.value
            if !row.currency.isEmpty {
                guard let converted = settings.convert(value, from: row.currency) else {
                    unconverted.insert(row.currency)
                    continue
                }
                value = converted
            }
            if row.metric == .cohortSize || row.metric.cohortMonths != nil || row.metric.cohortRevenueMonth != nil {
                if row.day >= firstCohort {
                    // Size, retained after 1…12 months, then revenue in months 0…11.
                    let index = row.metric.cohortRevenueMonth.map { 13 + $0 } ?? row.metric.cohortMonths ?? 0
                    cohortCounts[row.day, default: Array(repeating: 0, count: 25)][index] += value
                }
                continue
            }
            tallies[nil, default: AnalyticsTally(firstDay: readFrom - 1, lastDay: throughDay)].add(value, row.metric, day: row.day)
            if query.breakdown != .none, let place {
                let key = Self.key(of: place, breakdown: query.breakdown, catalog: app.catalog)
                tallies[key, default: AnalyticsTally(firstDay: readFrom - 1, lastDay: throughDay)].add(value, row.metric, day: row.day)
            }
        }

        let sealed = tallies.mapValues { $0.sealed() }
        let buckets = Self.buckets(from: fromDay, through: throughDay, granularity: query.granularity)
        let smallBusiness = settings.smallBusinessProgram
        var segments: [AnalyticsReport.Segment] = []
        let empty = AnalyticsTally(firstDay: readFrom - 1, lastDay: throughDay).sealed()
        func known(_ figures: AnalyticsFigures) -> AnalyticsFigures {
            query.splitsByOfferType ? figures.withoutMovement : figures
        }
        var keys = sealed.keys.sorted(by: { ($0 == nil ? 0 : 1, $0 ?? "") < ($1 == nil ? 0 : 1, $1 ?? "") })
        if sealed[nil] == nil { keys.insert(nil, at: 0) }
        for key in keys {
            let tally = sealed[key] ?? empty
            let points = buckets.map { bucket in
                AnalyticsReport.Point(
                    start: AnalyticsCounters.start(ofDay: bucket.lowerBound), end: AnalyticsCounters.start(ofDay: bucket.upperBound),
                    figures: known(
                        tally.figures(
                            from: bucket.lowerBound, to: bucket.upperBound, smallBusiness: smallBusiness,
                            marks: Self.marks(of: bucket, granularity: query.granularity))))
            }
            segments.append(
                AnalyticsReport.Segment(
                    key: key, points: points,
                    total: known(Self.total(of: tally, from: fromDay, through: throughDay, granularity: query.granularity, smallBusiness: smallBusiness))))
        }
        let refundRequests = try await storage.consumptionRequests(
            appBundleID: app.bundleID, requestedFrom: AnalyticsCounters.start(ofDay: fromDay), before: AnalyticsCounters.start(ofDay: throughDay + 1)
        ).filter { $0.environment == query.environment }
        let previousTotal = known(
            Self.total(of: sealed[nil] ?? empty, from: previousFrom, through: fromDay - 1, granularity: query.granularity, smallBusiness: smallBusiness))
        return AnalyticsReport(
            query: query, asOf: now, currency: settings.reportingCurrency, segments: segments, previousTotal: previousTotal,
            cohorts: cohorts(cohortCounts, from: firstCohort, through: throughDay),
            renewals: (1...AnalyticsMetric.renewalPeriods).map { period in
                let tally = sealed[nil] ?? empty
                let due = tally.sum(.renewalDue(period: period), from: fromDay, to: throughDay + 1)
                return RenewalRow(period: period, due: Int(due), renewed: Int(due - tally.sum(.renewalLapsed(period: period), from: fromDay, to: throughDay + 1)))
            }, refundRequests: RefundRequestFigures(refundRequests), unconvertedCurrencies: unconverted.sorted())
    }

    /// The figures of a range as one bucket; its churn rate, customers and paying customers are
    /// those of the range's buckets whose start is their period's (a day, a week's Monday, a
    /// month's first), summed: the churn rate their churn of actives at start over their actives
    /// at start, ARPU their revenue over their customers (an average per day, week or month).
    private static func total(of tally: AnalyticsTally, from: Int, through: Int, granularity: AnalyticsGranularity, smallBusiness: Bool) -> AnalyticsFigures {
        var total = tally.figures(from: from, to: through + 1, smallBusiness: smallBusiness, marks: nil)
        var (churned, active, customers, paying, revenue) = (0, 0, 0, 0, Int64(0))
        var whole = false
        for bucket in buckets(from: from, through: through, granularity: granularity) {
            guard let marks = marks(of: bucket, granularity: granularity) else { continue }
            let figures = tally.figures(from: bucket.lowerBound, to: bucket.upperBound, smallBusiness: smallBusiness, marks: marks)
            churned += figures.churnOfActiveAtStart ?? 0
            active += figures.activeAtStart
            customers += figures.customers ?? 0
            paying += figures.payingCustomers ?? 0
            revenue += figures.revenueGross
            whole = true
        }
        guard whole else { return total }
        total.churnOfActiveAtStart = churned
        total.churnRate = active > 0 ? Double(churned) / Double(active) : nil
        total.customers = customers
        total.payingCustomers = paying
        total.setAverages(revenue: revenue)
        return total
    }

    /// The marks of a bucket's period, for a bucket that starts where its period does; nil for a
    /// bucket clipped at its start. Its end does not matter: what a mark counts by the bucket's
    /// end began in it.
    private static func marks(of bucket: Range<Int>, granularity: AnalyticsGranularity) -> AnalyticsTally.PeriodMarks? {
        switch granularity {
        case .day: .day
        case .week: UTCCalendar.weekStart(of: bucket.lowerBound) == bucket.lowerBound ? .week : nil
        case .month: UTCCalendar.monthStart(of: bucket.lowerBound) == bucket.lowerBound ? .month : nil
        }
    }

    /// A row's storefront, product and offer type. A row of the product dimension has its product
    /// alone, read where the filter names no storefront or offer type. Nil for a row of the
    /// combined dimension written before it held them (until the definitions upgrade rebuilds it).
    private static func place(of row: AnalyticsCounterRow, in dimension: AnalyticsDimension) -> AnalyticsCombinedSegment? {
        switch dimension {
        case .product: AnalyticsCombinedSegment(storefront: "", productID: row.segment, offerType: "")
        case .combined: AnalyticsCombinedSegment(row.segment)
        }
    }

    /// The segment a counter belongs to under `breakdown` (a product's group from the catalog).
    private static func key(of place: AnalyticsCombinedSegment, breakdown: AnalyticsBreakdown, catalog: Catalog) -> String {
        switch breakdown {
        case .none, .product: place.productID
        case .subscriptionGroup: catalog.product(id: place.productID)?.subscriptionGroupID ?? ""
        case .storefront: place.storefront
        case .offerType: AnalyticsFilter.offerName(place.offerType)
        }
    }

    /// One row per month of the range; a cell is known once its instant has passed for every
    /// member (the month's end plus k months).
    private func cohorts(_ counts: [Int: [Int64]], from firstMonth: Int, through lastDay: Int) -> [CohortRow] {
        let today = AnalyticsCounters.day(of: clock.now)
        var rows: [CohortRow] = []
        var month = firstMonth
        while month <= lastDay {
            let values = counts[month] ?? Array(repeating: 0, count: 25)
            func isKnown(after months: Int) -> Bool { UTCCalendar.month(months + 1, after: month) <= today }
            rows.append(
                CohortRow(
                    month: AnalyticsCounters.start(ofDay: month), size: Int(values[0]),
                    retained: (1...12).map { isKnown(after: $0) ? Int(values[$0]) : nil },
                    revenue: (1...12).map { months in isKnown(after: months) ? values[13..<(13 + months)].reduce(0, +) : nil }))
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

public import PerennialCore

/// The analytics counters a back end keeps beside the records: written by every apply in its
/// transaction (``WritePlan/analytics``), read by sums over days, and derivable again from the
/// records alone.
public protocol AnalyticsStorage: Sendable {
    /// The counters of one app and environment split by `request.dimension`, summed per day,
    /// segment and currency for the days of the request; unless the request says not to, the change
    /// counters (``PerennialCore/AnalyticsMetric/isChange``) also as one row per metric, segment
    /// and currency dated `fromDay - 1` holding their sum over every earlier day.
    func analyticsCounters(_ request: AnalyticsCounterRequest) async throws(StorageError) -> [AnalyticsCounterRow]

    /// Replaces the counters of each app of `apps` (facts by bundle id) by the sum of its
    /// ``PerennialCore/SubscriptionFacts`` over its stored subscriptions: what the applies should
    /// have kept, derived from the records alone. The counters of any other app are kept as they
    /// are (a rebuild that was not given an app's catalog cannot recompute them, and must not
    /// erase them); its subscriptions are counted in ``AnalyticsRebuild/unknownApps``. Back ends
    /// write it as a correction of the counters (the sums minus the counters, both at one
    /// snapshot), so applies go on meanwhile and keep their changes.
    func rebuildAnalytics(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsRebuild

    /// The ``PerennialCore/SubscriptionFacts/definitions`` the counters were last rebuilt with
    /// (1 for counters kept before versions were recorded).
    func analyticsDefinitions() async throws(StorageError) -> Int

    /// Records that the counters were rebuilt with definitions `version`.
    func recordAnalyticsDefinitions(_ version: Int) async throws(StorageError)
}

/// Which part of a counter's key a read groups by: counters are kept twice, by product (what the
/// overview reads, in few rows) and by storefront, product and offer type together
/// (``AnalyticsCombinedSegment``, what a filtered report or any other breakdown reads).
public enum AnalyticsDimension: Int, Sendable, Hashable, CaseIterable {
    case product = 0
    case combined = 1
}

public struct AnalyticsCounterRequest: Sendable, Hashable {
    public var appBundleID: String
    public var environment: AppStoreEnvironment
    public var dimension: AnalyticsDimension
    /// First day (days since 1970-01-01 UTC) of the rows returned day by day.
    public var fromDay: Int
    /// Last day included.
    public var throughDay: Int
    /// Whether the change counters (``PerennialCore/AnalyticsMetric/isChange``) of every day
    /// before `fromDay` come first, summed into one row each on `fromDay - 1`: a report's levels
    /// need them; a read of scheduled counters, whose days are hours, does not.
    public var summingEarlierChanges: Bool

    public init(
        appBundleID: String, environment: AppStoreEnvironment, dimension: AnalyticsDimension, fromDay: Int, throughDay: Int,
        summingEarlierChanges: Bool = true
    ) {
        self.appBundleID = appBundleID
        self.environment = environment
        self.dimension = dimension
        self.fromDay = fromDay
        self.throughDay = throughDay
        self.summingEarlierChanges = summingEarlierChanges
    }
}

public struct AnalyticsCounterRow: Sendable, Hashable {
    public var metric: AnalyticsMetric
    public var day: Int
    /// The product id, or an ``AnalyticsCombinedSegment``'s string.
    public var segment: String
    public var currency: String
    public var value: Int64

    public init(metric: AnalyticsMetric, day: Int, segment: String, currency: String, value: Int64) {
        self.metric = metric
        self.day = day
        self.segment = segment
        self.currency = currency
        self.value = value
    }
}

/// What a rebuild did.
public struct AnalyticsRebuild: Sendable, Hashable {
    /// Subscriptions (original transaction ids) whose facts were summed.
    public var subscriptions: Int
    /// Counter rows the records gave (each counter once per dimension).
    public var rows: Int
    /// Subscriptions of apps the rebuild was not given, by bundle id: their counters were kept.
    public var unknownApps: [String: Int]

    public init(subscriptions: Int, rows: Int, unknownApps: [String: Int] = [:]) {
        self.subscriptions = subscriptions
        self.rows = rows
        self.unknownApps = unknownApps
    }
}

/// One row of the counters table: a counter summed under one dimension's segment.
public struct AnalyticsStoredRow: Sendable, Hashable, Comparable {
    public var environment: AppStoreEnvironment
    public var dimension: AnalyticsDimension
    public var segment: String
    public var metric: AnalyticsMetric
    public var currency: String
    public var day: Int
    public var value: Int64

    public init(
        environment: AppStoreEnvironment, dimension: AnalyticsDimension, segment: String, metric: AnalyticsMetric, currency: String, day: Int,
        value: Int64
    ) {
        self.environment = environment
        self.dimension = dimension
        self.segment = segment
        self.metric = metric
        self.currency = currency
        self.day = day
        self.value = value
    }

    /// Integers first: rows of one apply rarely tie on them, so strings are seldom compared.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.day != rhs.day { return lhs.day < rhs.day }
        if lhs.metric != rhs.metric { return lhs.metric < rhs.metric }
        if lhs.dimension != rhs.dimension { return lhs.dimension.rawValue < rhs.dimension.rawValue }
        return (lhs.segment, lhs.currency, lhs.environment.rawValue) < (rhs.segment, rhs.currency, rhs.environment.rawValue)
    }
}

extension AnalyticsCounters {
    /// The rows a back end adds these counters to: each counter under its product and under its
    /// storefront, product and offer type, summed per row and sorted (so concurrent writers lock
    /// rows in one order).
    ///
    /// Every apply writes these; the rows are summed under one packed integer per row (its
    /// segment in the dimension, numbered once per segment), not under their strings.
    public var storedRows: [AnalyticsStoredRow] {
        var segments = AnalyticsRowSegments()
        return segments.sums(of: self).rows(segments).sorted()
    }
}

/// Row segments (environment, dimension, segment, currency: a row with no metric, day or value),
/// numbered in the order met, so that rows are summed and compared as one packed integer each —
/// the segment's number, the metric, the day — and not by their strings.
struct AnalyticsRowSegments: Sendable {
    private var rows: [AnalyticsStoredRow] = []
    private var numbers: [AnalyticsStoredRow: Int] = [:]

    /// The number of `row`'s segment.
    mutating func number(of row: AnalyticsStoredRow) -> Int {
        var segment = row
        (segment.metric, segment.day, segment.value) = (AnalyticsMetric(rawValue: 0), 0, 0)
        if let number = numbers[segment] { return number }
        rows.append(segment)
        numbers[segment] = rows.count - 1
        return rows.count - 1
    }

    /// The rows of `counters` in both dimensions, summed by packed key.
    mutating func sums(of counters: AnalyticsCounters) -> PackedSums {
        // Each interned segment of the counters, as its row segment in each dimension.
        let projections = counters.internedSegments.map { segment in
            AnalyticsDimension.allCases.map { dimension in
                number(
                    of: AnalyticsStoredRow(
                        environment: segment.environment, dimension: dimension,
                        segment: dimension == .product
                            ? segment.productID
                            : AnalyticsCombinedSegment(storefront: segment.storefront, productID: segment.productID, offerType: segment.offerType).segment,
                        metric: AnalyticsMetric(rawValue: 0), currency: segment.currency, day: 0, value: 0))
            }
        }
        var sums = PackedSums()
        counters.forEachCounter { segment, metric, day, value in
            for number in projections[segment] { sums.add(value, to: AnalyticsCounters.PackedKey(segment: number, metric: metric, day: day)) }
        }
        return sums
    }

    /// Each segment's place among the segments' rows in their order, by its number.
    var ranks: [Int] {
        var ranks = [Int](repeating: 0, count: rows.count)
        for (rank, number) in rows.indices.sorted(by: { rows[$0] < rows[$1] }).enumerated() { ranks[number] = rank }
        return ranks
    }

    /// The row of a packed key, with `value`.
    func row(_ key: AnalyticsCounters.PackedKey, value: Int64) -> AnalyticsStoredRow {
        var row = rows[key.segment]
        (row.metric, row.day, row.value) = (key.metric, key.day, value)
        return row
    }
}

extension PackedSums {
    /// Each non-zero sum as its row.
    func rows(_ segments: AnalyticsRowSegments) -> [AnalyticsStoredRow] {
        var rows: [AnalyticsStoredRow] = []
        rows.reserveCapacity(nonZero)
        forEach { key, value in rows.append(segments.row(key, value: value)) }
        return rows
    }
}

public import Foundation

/// Counter values by key: what one subscription contributes (``SubscriptionFacts``), the change
/// an apply makes (new contribution minus old), or the sum over every subscription (a rebuild).
///
/// A plain sum, so that adding the change of every apply gives exactly what a rebuild sums from
/// the records: the order in which evidence arrived cannot matter.
///
/// Computing facts is adding to counters, tens of times per subscription, in every apply and a
/// million times over in a rebuild; so the strings of a key (environment, product, storefront,
/// currency — a ``Segment``) are interned once per transaction, and each addition hashes one
/// packed integer (segment, metric, day) instead of four strings.
public struct AnalyticsCounters: Sendable {
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

    /// The strings of a key, kept once per distinct combination.
    public struct Segment: Hashable, Sendable {
        public var environment: AppStoreEnvironment
        public var productID: String
        public var storefront: String
        public var currency: String

        public init(environment: AppStoreEnvironment, productID: String, storefront: String, currency: String) {
            self.environment = environment
            self.productID = productID
            self.storefront = storefront
            self.currency = currency
        }
    }

    /// A segment's number in these counters (valid only for the counters that interned it).
    public struct SegmentID: Hashable, Sendable {
        fileprivate let index: Int
    }

    /// A counter's place as one integer — a segment's number, a metric, a day — so summing hashes
    /// one word, not a key's strings.
    public struct PackedKey: Hashable, Sendable {
        private let rawValue: UInt64

        public init(segment: Int, metric: AnalyticsMetric, day: Int) {
            rawValue = UInt64(segment) << 40 | UInt64(UInt8(truncatingIfNeeded: metric.rawValue)) << 32 | UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: day)))
        }

        public var segment: Int { Int(rawValue >> 40) }
        public var metric: AnalyticsMetric { AnalyticsMetric(rawValue: Int(rawValue >> 32 & 0xFF)) }
        public var day: Int { Int(Int32(bitPattern: UInt32(truncatingIfNeeded: rawValue))) }
    }

    private var segments: [Segment] = []
    private var segmentIDs: [Segment: SegmentID] = [:]
    /// Never 0.
    private var sums: [PackedKey: Int64] = [:]

    public init() {}

    public var isEmpty: Bool { sums.isEmpty }

    /// Every non-zero counter by its key.
    public var values: [Key: Int64] {
        var values: [Key: Int64] = [:]
        values.reserveCapacity(sums.count)
        forEachCounter { index, metric, day, value in
            let segment = segments[index]
            let key = Key(
                environment: segment.environment, metric: metric, day: day, productID: segment.productID, storefront: segment.storefront,
                currency: segment.currency)
            values[key] = value
        }
        return values
    }

    /// The segments interned so far; ``forEachCounter(_:)`` names them by their index here.
    public var internedSegments: [Segment] { segments }

    /// Every non-zero counter, its segment as an index into ``internedSegments``: for grouping
    /// counters by parts of their segment without building a key (and hashing its strings) for each.
    public func forEachCounter(_ body: (_ segment: Int, _ metric: AnalyticsMetric, _ day: Int, _ value: Int64) -> Void) {
        for (key, value) in sums { body(key.segment, key.metric, key.day, value) }
    }

    /// The number of `segment` in these counters, interning it on first use.
    public mutating func intern(_ segment: Segment) -> SegmentID {
        if let id = segmentIDs[segment] { return id }
        let id = SegmentID(index: segments.count)
        segments.append(segment)
        segmentIDs[segment] = id
        return id
    }

    /// Adds `amount` to a counter; a counter back at zero is dropped, so equal sums compare equal.
    public mutating func add(_ amount: Int64, to key: Key) {
        let segment = intern(Segment(environment: key.environment, productID: key.productID, storefront: key.storefront, currency: key.currency))
        add(amount, segment: segment, metric: key.metric, day: key.day)
    }

    /// Adds `amount` to the counter of an interned segment.
    public mutating func add(_ amount: Int64, segment: SegmentID, metric: AnalyticsMetric, day: Int) {
        add(amount, PackedKey(segment: segment.index, metric: metric, day: day))
    }

    private mutating func add(_ amount: Int64, _ key: PackedKey) {
        guard amount != 0 else { return }
        let sum = sums[key, default: 0] + amount
        sums[key] = sum == 0 ? nil : sum
    }

    /// Adds every counter of `other`: what a sum over several subscriptions, computed in parts, is.
    public mutating func add(_ other: AnalyticsCounters) {
        let mapped = other.segments.map { intern($0).index }
        for (key, amount) in other.sums {
            add(amount, PackedKey(segment: mapped[key.segment], metric: key.metric, day: key.day))
        }
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

/// Equal when every counter is: however the segments were numbered.
extension AnalyticsCounters: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sums.count == rhs.sums.count && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }
}

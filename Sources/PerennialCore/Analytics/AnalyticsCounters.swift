public import Foundation

/// Counter values by key: what one subscription contributes (``SubscriptionFacts``), the change
/// an apply makes (new contribution minus old), or the sum over every subscription (a rebuild).
///
/// A plain sum, so that adding the change of every apply gives exactly what a rebuild sums from
/// the records: the order in which evidence arrived cannot matter.
///
/// Computing facts is adding to counters, tens of times per subscription, in every apply and a
/// million times over in a rebuild; so the strings of a key (environment, product, storefront,
/// offer type, currency — a ``Segment``) are interned once per transaction, and each addition hashes one
/// packed integer (segment, metric, day) instead of four strings, in a table of its own
/// (``PackedSums``) rather than a `Dictionary`, whose seeded SipHash of every key was a third of
/// the cost of computing a subscription's facts.
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
        /// The offer the period was bought with (``OfferType``'s raw value); empty for none.
        public var offerType: String
        /// ISO 4217 code for amounts, empty for counts.
        public var currency: String

        public init(
            environment: AppStoreEnvironment, metric: AnalyticsMetric, day: Int, productID: String, storefront: String, offerType: String = "",
            currency: String
        ) {
            self.environment = environment
            self.metric = metric
            self.day = day
            self.productID = productID
            self.storefront = storefront
            self.offerType = offerType
            self.currency = currency
        }
    }

    /// The strings of a key, kept once per distinct combination.
    public struct Segment: Hashable, Sendable {
        public var environment: AppStoreEnvironment
        public var productID: String
        public var storefront: String
        /// ``OfferType``'s raw value, or empty: a report filters and splits by it.
        public var offerType: String
        public var currency: String

        public init(environment: AppStoreEnvironment, productID: String, storefront: String, offerType: String = "", currency: String) {
            self.environment = environment
            self.productID = productID
            self.storefront = storefront
            self.offerType = offerType
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
        fileprivate let rawValue: UInt64

        public init(segment: Int, metric: AnalyticsMetric, day: Int) {
            rawValue = UInt64(segment) << 40 | UInt64(UInt8(truncatingIfNeeded: metric.rawValue)) << 32 | UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: day)))
        }

        /// Nil for a key the packing would change: a metric outside 0–255, a day outside 32 bits
        /// (a stored row no counter can have, which must not pass for another counter's).
        public init?(exactly segment: Int, metric: AnalyticsMetric, day: Int) {
            guard (0..<(1 << 24) - 1).contains(segment), (0...255).contains(metric.rawValue), Int32(exactly: day) != nil else { return nil }
            self.init(segment: segment, metric: metric, day: day)
        }

        fileprivate init(rawValue: UInt64) { self.rawValue = rawValue }

        public var segment: Int { Int(rawValue >> 40) }
        public var metric: AnalyticsMetric { AnalyticsMetric(rawValue: Int(rawValue >> 32 & 0xFF)) }
        public var day: Int { Int(Int32(bitPattern: UInt32(truncatingIfNeeded: rawValue))) }
    }

    private var segments: [Segment] = []
    private var segmentIDs: [Segment: SegmentID] = [:]
    private var sums = PackedSums()

    public init() {}

    public var isEmpty: Bool { sums.nonZero == 0 }

    /// Every non-zero counter by its key.
    public var values: [Key: Int64] {
        var values: [Key: Int64] = [:]
        values.reserveCapacity(sums.nonZero)
        forEachCounter { index, metric, day, value in
            let segment = segments[index]
            let key = Key(
                environment: segment.environment, metric: metric, day: day, productID: segment.productID, storefront: segment.storefront,
                offerType: segment.offerType, currency: segment.currency)
            values[key] = value
        }
        return values
    }

    /// The segments interned so far; ``forEachCounter(_:)`` names them by their index here.
    public var internedSegments: [Segment] { segments }

    /// Every non-zero counter, its segment as an index into ``internedSegments``: for grouping
    /// counters by parts of their segment without building a key (and hashing its strings) for each.
    public func forEachCounter(_ body: (_ segment: Int, _ metric: AnalyticsMetric, _ day: Int, _ value: Int64) -> Void) {
        sums.forEach { key, value in body(key.segment, key.metric, key.day, value) }
    }

    /// The number of `segment` in these counters, interning it on first use.
    ///
    /// An apply's change has a segment or two, where comparing them costs less than hashing a
    /// key's four strings; the table by segment is built once there are more.
    public mutating func intern(_ segment: Segment) -> SegmentID {
        if segments.count <= Self.segmentsCompared {
            if let index = segments.firstIndex(of: segment) { return SegmentID(index: index) }
        } else if let id = segmentIDs[segment] {
            return id
        }
        let id = SegmentID(index: segments.count)
        segments.append(segment)
        if segments.count > Self.segmentsCompared {
            if segmentIDs.isEmpty {
                for (index, known) in segments.enumerated() { segmentIDs[known] = SegmentID(index: index) }
            } else {
                segmentIDs[segment] = id
            }
        }
        return id
    }

    private static let segmentsCompared = 8

    /// Adds `amount` to a counter; a counter back at zero counts as absent, so equal sums compare equal.
    public mutating func add(_ amount: Int64, to key: Key) {
        let segment = intern(
            Segment(environment: key.environment, productID: key.productID, storefront: key.storefront, offerType: key.offerType, currency: key.currency))
        add(amount, segment: segment, metric: key.metric, day: key.day)
    }

    /// Adds `amount` to the counter of an interned segment.
    public mutating func add(_ amount: Int64, segment: SegmentID, metric: AnalyticsMetric, day: Int) {
        add(amount, PackedKey(segment: segment.index, metric: metric, day: day))
    }

    private mutating func add(_ amount: Int64, _ key: PackedKey) {
        sums.add(amount, to: key)
    }

    /// Adds every counter of `other`: what a sum over several subscriptions, computed in parts, is.
    public mutating func add(_ other: AnalyticsCounters) {
        let mapped = other.segments.map { intern($0).index }
        other.sums.forEach { key, amount in
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

    /// The hour (hours since 1970-01-01 UTC) an instant falls in: the day of a scheduled counter
    /// (``AnalyticsMetric/scheduled(_:)``).
    public static func hour(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 3_600).rounded(.down))
    }
}

/// Equal when every counter is: however the segments were numbered.
extension AnalyticsCounters: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sums.nonZero == rhs.sums.nonZero && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }
}

/// Sums by packed key in one open-addressing table: linear probing over a power-of-two capacity,
/// a multiplicative hash of the key's 64 bits. A sum that comes back to zero keeps its slot (the
/// next growth drops it) and is skipped by ``forEach(_:)``.
///
/// A key and its sum share a slot, so an addition touches one cache line, not two: a rebuild's
/// tables hold hundreds of thousands of counters, far more than the caches, and nearly every
/// addition was two misses. Sixteen bytes a counter, where a `Dictionary` of stored rows took
/// about a hundred: a rebuild's correction sums the rows of both dimensions in two of these.
///
/// Additions wrap: a corrupt stored counter near the limits must not stop the process (the
/// database's own addition refuses what overflows).
package struct PackedSums: Sendable {
    private struct Slot {
        /// `empty` where no key is; a packed key is never all ones (its segment would be 2^24 − 1).
        var key: UInt64
        var sum: Int64
    }

    private var slots: [Slot] = []
    private var used = 0
    /// Keys whose sum is not zero.
    package private(set) var nonZero = 0
    private static let empty = UInt64.max

    package init() {}

    /// The sum at `key`; zero where nothing was added.
    package subscript(key: AnalyticsCounters.PackedKey) -> Int64 {
        guard !slots.isEmpty else { return 0 }
        let mask = slots.count - 1
        var index = Self.slot(of: key.rawValue, mask: mask)
        while true {
            let found = slots[index].key
            if found == key.rawValue { return slots[index].sum }
            if found == Self.empty { return 0 }
            index = (index + 1) & mask
        }
    }

    package mutating func add(_ amount: Int64, to key: AnalyticsCounters.PackedKey) {
        guard amount != 0 else { return }
        if (used + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        var index = Self.slot(of: key.rawValue, mask: mask)
        slots.withUnsafeMutableBufferPointer { slots in
            while true {
                let found = slots[index].key
                if found == key.rawValue {
                    let before = slots[index].sum
                    let after = before &+ amount
                    slots[index].sum = after
                    if before == 0 { nonZero += 1 } else if after == 0 { nonZero -= 1 }
                    return
                }
                if found == Self.empty {
                    slots[index] = Slot(key: key.rawValue, sum: amount)
                    used += 1
                    nonZero += 1
                    return
                }
                index = (index + 1) & mask
            }
        }
    }

    package func forEach(_ body: (AnalyticsCounters.PackedKey, Int64) -> Void) {
        for slot in slots where slot.key != Self.empty && slot.sum != 0 {
            body(AnalyticsCounters.PackedKey(rawValue: slot.key), slot.sum)
        }
    }

    private static func slot(of key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// Doubles the table when more than half of it holds sums, else rehashes at the same size to
    /// drop the sums back at zero.
    private mutating func grow() {
        let old = slots
        // 256 slots hold a subscription's year of counters, and an apply's change, without growing.
        let capacity = max(256, nonZero * 2 > slots.count / 2 ? slots.count * 2 : slots.count)
        slots = Array(repeating: Slot(key: Self.empty, sum: 0), count: capacity)
        used = 0
        nonZero = 0
        for slot in old where slot.key != Self.empty && slot.sum != 0 {
            add(slot.sum, to: AnalyticsCounters.PackedKey(rawValue: slot.key))
        }
    }
}

/// Every counter as `day metric environment/product/storefront/offer type currency = value`, in order: what a failed
/// comparison in a test shows.
extension AnalyticsCounters: CustomStringConvertible {
    public var description: String {
        let lines = values.map { key, value in
            "\(key.day) \(key.metric.rawValue) \(key.environment)/\(key.productID)/\(key.storefront)/\(key.offerType) \(key.currency) = \(value)"
        }
        return "[" + lines.sorted().joined(separator: ", ") + "]"
    }
}

import Foundation
import GRDB
import PerennialCore
import PerennialStorage

/// Where an apply's change to the analytics counters goes on SQLite: into the evidence row the
/// apply inserts anyway, folded into `analytics_counters` every ``foldEvery`` evidence rows.
///
/// An apply changes a few dozen counters spread over the days a subscription's periods start and
/// end. Adding them to the counters table in the apply's transaction dirtied a leaf page per few
/// rows, and SQLite writes each dirty page whole to the WAL at every commit: that, not computing
/// the change, made maintaining the counters cost an apply about half again. A row of its own in a
/// journal table still cost a statement and a page per commit; in the evidence row it is a few
/// hundred bytes more on a page the commit writes anyway. Folding many changes at once sums them
/// in memory first (most share today's counters) and writes each counter page once for all of them.
///
/// Nothing is lost or counted twice: the change is written in the apply's transaction, the fold
/// adds exactly the evidence rows after `analytics_folded.through_evidence_id` and moves that
/// mark past them in its own, and a read sums the counters and the changes after the mark in one
/// snapshot. Evidence rows are never deleted, and their ids only grow (`AUTOINCREMENT`).
enum SQLiteAnalyticsJournal {
    /// Evidence rows between two folds: the most changes a read has to decode beside the counters.
    static let foldEvery: Int64 = 256

    /// The bytes to store in the evidence row of an apply that changed `change`; nil for none.
    static func column(for change: AnalyticsCounters) -> Data? {
        change.isEmpty ? nil : encode(change)
    }

    /// Folds the changes when the evidence row just inserted is the ``foldEvery``-th since the
    /// last fold could have been.
    static func foldIfDue(after evidenceID: Int64, _ db: Database) throws {
        if evidenceID % foldEvery == 0 { try fold(db) }
    }

    /// Adds every change after the mark to the counters and moves the mark to the last evidence row.
    static func fold(_ db: Database) throws {
        try addToCounters(
            Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT id, app_bundle_id, analytics_change FROM evidence
                        WHERE id > (SELECT through_evidence_id FROM analytics_folded) AND analytics_change IS NOT NULL
                        """)), db)
        try db.cachedStatement(sql: "UPDATE analytics_folded SET through_evidence_id = (SELECT COALESCE(MAX(id), 0) FROM evidence)").execute()
    }

    /// Adds the changes of `rows` of `table` (id, app bundle id, the change's bytes) to the
    /// counters, summed in memory first.
    static func addToCounters(_ rows: RowCursor, of table: String = "evidence", _ db: Database) throws {
        var sums: [String: AnalyticsCounters] = [:]
        while let row = try rows.next() { try decode(row[2], id: row[0], of: table, into: &sums[row[1], default: AnalyticsCounters()]) }
        for (app, counters) in sums { try SQLiteRows.addAnalytics(counters.storedRows, app: app, db) }
    }

    /// The sum of the changes not folded yet for one app.
    static func pending(app: String, _ db: Database) throws -> AnalyticsCounters {
        var sum = AnalyticsCounters()
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT id, analytics_change FROM evidence
                    WHERE id > (SELECT through_evidence_id FROM analytics_folded) AND app_bundle_id = ? AND analytics_change IS NOT NULL
                    """), arguments: [app])
        while let row = try rows.next() { try decode(row[1], id: row[0], into: &sum) }
        return sum
    }

    // MARK: The row's bytes

    /// A 0, then the segments' strings once, then each counter as its segment's index, metric, day
    /// and value, all as LEB128 varints (day and value zigzagged): 4–8 bytes a counter instead of
    /// a key's strings.
    ///
    /// The 0 says each segment has its offer type: a change written before offer types
    /// (definitions 2) starts with its segment count, never 0, and holds four strings a segment.
    /// Such rows may wait for a fold across an upgrade; they decode with no offer type, and the
    /// upgrade's rebuild corrects the counters they went into.
    static func encode(_ counters: AnalyticsCounters) -> Data {
        var bytes = ByteWriter()
        let segments = counters.internedSegments
        bytes.varint(0)
        bytes.varint(UInt64(segments.count))
        for segment in segments {
            bytes.string(segment.environment.rawValue)
            bytes.string(segment.productID)
            bytes.string(segment.storefront)
            bytes.string(segment.offerType)
            bytes.string(segment.currency)
        }
        counters.forEachCounter { segment, metric, day, value in
            bytes.varint(UInt64(segment))
            bytes.varint(UInt64(metric.rawValue))
            bytes.signed(Int64(day))
            bytes.signed(value)
        }
        return Data(bytes.bytes)
    }

    /// Adds the counters of ``encode(_:)``'s bytes to `counters` (straight into a fold's or a
    /// read's sum, not through counters of their own).
    /// - Throws: ``PerennialStorage/StorageError/corruptRow(table:key:reason:)`` for bytes it did
    ///   not write; `counters` may then hold part of the row.
    static func decode(_ data: Data, id: Int64, of table: String = "evidence", into counters: inout AnalyticsCounters) throws(StorageError) {
        // An array, not `Data`: a fold decodes hundreds of thousands of bytes one at a time, and
        // `Data`'s subscript checks its representation at each.
        var bytes = ByteReader(bytes: [UInt8](data), corrupt: { StorageError.corruptRow(table: table, key: "\(id)", reason: $0) })
        var segments: [AnalyticsCounters.SegmentID] = []
        var count = try bytes.varint()
        let hasOfferTypes = count == 0
        if hasOfferTypes { count = try bytes.varint() }
        for _ in 0..<count {
            let environment = AppStoreEnvironment(rawValue: try bytes.string())
            let (productID, storefront) = (try bytes.string(), try bytes.string())
            let offerType = hasOfferTypes ? try bytes.string() : ""
            segments.append(
                counters.intern(
                    AnalyticsCounters.Segment(
                        environment: environment, productID: productID, storefront: storefront, offerType: offerType, currency: try bytes.string())))
        }
        while !bytes.isAtEnd {
            let segment = try bytes.varint()
            guard segment < UInt64(segments.count) else { throw bytes.corrupt("segment \(segment) of \(segments.count)") }
            let metric = try bytes.varint()
            guard metric <= UInt64(UInt8.max) else { throw bytes.corrupt("metric \(metric)") }
            let day = try bytes.signed()
            let value = try bytes.signed()
            guard let day32 = Int32(exactly: day) else { throw bytes.corrupt("day \(day)") }
            counters.add(value, segment: segments[Int(segment)], metric: AnalyticsMetric(rawValue: Int(metric)), day: Int(day32))
        }
    }

    /// LEB128 varints (signed ones zigzagged) and length-prefixed strings, appended.
    private struct ByteWriter {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(256) }

        mutating func varint(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        mutating func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

        mutating func string(_ value: String) {
            varint(UInt64(value.utf8.count))
            bytes.append(contentsOf: value.utf8)
        }
    }

    /// What ``ByteWriter`` wrote, read back in order.
    private struct ByteReader {
        let bytes: [UInt8]
        let corrupt: (String) -> StorageError
        private var position = 0

        init(bytes: [UInt8], corrupt: @escaping (String) -> StorageError) {
            self.bytes = bytes
            self.corrupt = corrupt
        }

        var isAtEnd: Bool { position >= bytes.count }

        mutating func varint() throws(StorageError) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < bytes.count, shift < 64 {
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            throw corrupt("truncated varint at byte \(position)")
        }

        mutating func signed() throws(StorageError) -> Int64 {
            let raw = try varint()
            return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        }

        mutating func string() throws(StorageError) -> String {
            let count = try varint()
            guard count <= UInt64(bytes.count - position) else { throw corrupt("a string runs past the end") }
            defer { position += Int(count) }
            return String(decoding: bytes[position..<position + Int(count)], as: UTF8.self)
        }
    }
}

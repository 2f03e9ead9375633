import Foundation
import GRDB
import PerennialCore
@testable import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// The journal of analytics changes on SQLite (each in its apply's evidence row): a read finds the
/// same figures before and after a fold, the journal folds itself every
/// ``SQLiteAnalyticsJournal/foldEvery`` evidence rows, and a change's bytes read back as the
/// counters written (or as a typed error).
@Suite struct SQLiteAnalyticsJournalTests {
    private typealias P = AnalyticsPopulation

    private func applying(_ evidence: [IncomingEvidence], at path: String) async throws -> SQLiteStorage {
        let storage = try SQLiteStorage(path: path)
        try await storage.migrate()
        for item in evidence { _ = try await storage.apply(item, with: P.applier, now: P.at(4, 1)) }
        return storage
    }

    /// Evidence rows whose change is not folded yet.
    private func journalRows(_ queue: DatabaseQueue) async throws -> Int {
        try await queue.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM evidence
                    WHERE id > (SELECT through_evidence_id FROM analytics_folded) AND analytics_change IS NOT NULL
                    """) ?? -1
        }
    }

    /// Counters read with the changes still in the journal equal those read after folding them,
    /// for a range starting mid-population (the changes before it summed into its first row).
    @Test(arguments: AnalyticsDimension.allCases)
    func aReadSumsTheJournalAsAFoldWould(_ dimension: AnalyticsDimension) async throws {
        try await withTemporarySQLiteFile { path in
            let storage = try await applying(P.evidence, at: path)
            let queue = try DatabaseQueue(path: path)
            // One row per apply that changed a counter (a renewal info saying nothing new changes none).
            #expect((1...P.evidence.count).contains(try await journalRows(queue)))
            #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM analytics_counters") } == 0)
            let request = AnalyticsCounterRequest(
                appBundleID: P.bundleID, environment: .production, dimension: dimension, fromDay: P.day(2, 15), throughDay: P.day(3, 15))
            func read() async throws -> [AnalyticsCounterRow] {
                try await storage.analyticsCounters(request).filter { $0.value != 0 }
                    .sorted { ($0.metric, $0.day, $0.segment, $0.currency) < ($1.metric, $1.day, $1.segment, $1.currency) }
            }
            let unfolded = try await read()
            #expect(unfolded.contains { $0.day == request.fromDay - 1 && $0.metric == .activeChange })
            #expect(unfolded.contains { $0.day == P.day(3, 1) && $0.metric == .refund })
            try await queue.write { db in try SQLiteAnalyticsJournal.fold(db) }
            #expect(try await journalRows(queue) == 0)
            #expect(try await read() == unfolded)
        }
    }

    /// Twenty copies of the population (460 applies, more than ``foldEvery`` of them changing
    /// counters): a fold has moved the journal into the counters, the rest waits for the next; and
    /// the counters are still what a rebuild derives from the records.
    @Test func theJournalFoldsItself() async throws {
        try await withTemporarySQLiteFile { path in
            let storage = try await applying(P.evidence(copies: 20), at: path)
            let queue = try DatabaseQueue(path: path)
            #expect((1..<Int(SQLiteAnalyticsJournal.foldEvery)).contains(try await journalRows(queue)))
            #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM analytics_counters") ?? 0 } > 0)
            let request = AnalyticsCounterRequest(
                appBundleID: P.bundleID, environment: .production, dimension: .product, fromDay: 0, throughDay: 100_000)
            let kept = Set(try await storage.analyticsCounters(request).filter { $0.value != 0 })
            _ = try await storage.rebuildAnalytics(apps: [P.bundleID: SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))])
            #expect(try await journalRows(queue) == 0)
            #expect(Set(try await storage.analyticsCounters(request).filter { $0.value != 0 }) == kept)
        }
    }

    /// A rebuild sums the records on a read snapshot and writes only at the end, so applies go on
    /// meanwhile: what they change between its read and its write (a fold among them) is kept
    /// beside its correction, neither lost nor counted twice. The counters end as those of the same
    /// evidence applied with no rebuild at all.
    @Test func appliesDuringARebuildKeepTheirChanges() async throws {
        // Meanwhile: a third of the evidence of 14 copies of the population, and the last copy whole
        // (subscriptions the snapshot does not hold at all).
        let all = P.evidence(copies: 15)
        let lastCopy = all.count - P.evidence.count
        let between = all.indices.filter { $0 % 3 == 0 || $0 >= lastCopy }.map { all[$0] }
        let before = all.indices.filter { $0 % 3 != 0 && $0 < lastCopy }.map { all[$0] }
        let request = AnalyticsCounterRequest(appBundleID: P.bundleID, environment: .production, dimension: .product, fromDay: 0, throughDay: 100_000)
        var expected: Set<AnalyticsCounterRow> = []
        try await withTemporarySQLiteFile { path in
            expected = Set(try await applying(all, at: path).analyticsCounters(request).filter { $0.value != 0 })
        }
        #expect(!expected.isEmpty)
        try await withTemporarySQLiteFile { path in
            let storage = try await applying(before, at: path)
            let apps = [P.bundleID: SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))]
            let snapshot = try await storage.analyticsSnapshot(apps: apps)
            let queue = try DatabaseQueue(path: path)
            let folds = try await queue.read { db in try Int64.fetchOne(db, sql: "SELECT through_evidence_id FROM analytics_folded") }
            for item in between { _ = try await storage.apply(item, with: P.applier, now: P.at(4, 1)) }
            #expect(try await queue.read { db in try Int64.fetchOne(db, sql: "SELECT through_evidence_id FROM analytics_folded") } != folds)
            let rebuild = try #require(try await storage.correctAnalytics(with: snapshot))
            // The snapshot held the subscriptions the evidence before it touched, no more.
            let touched = Set(before.flatMap(\.originalTransactionIDs))
            #expect(rebuild.subscriptions == touched.count && touched.count < 7 * 15)
            #expect(Set(try await storage.analyticsCounters(request).filter { $0.value != 0 }) == expected)
        }
    }

    @Test func aRowReadsBackAsTheCountersWritten() throws {
        var counters = AnalyticsCounters()
        let keys = [
            AnalyticsCounters.Key(
                environment: .production, metric: .activeChange, day: 20_500, productID: "pro.monthly", storefront: "USA", offerType: "introductory",
                currency: ""),
            AnalyticsCounters.Key(environment: .sandbox, metric: .mrrGrossChange, day: -3, productID: "pro.yearly", storefront: "FRA", currency: "EUR"),
            AnalyticsCounters.Key(environment: .production, metric: .cohortRetained(after: 12), day: 20_454, productID: "pro.monthly", storefront: "", currency: ""),
        ]
        counters.add(-1, to: keys[0])
        counters.add(9_990_000_000, to: keys[1])
        counters.add(Int64.min + 1, to: keys[2])
        let bytes = SQLiteAnalyticsJournal.encode(counters)
        func decoded(_ bytes: Data, id: Int64) throws(StorageError) -> AnalyticsCounters {
            var read = AnalyticsCounters()
            try SQLiteAnalyticsJournal.decode(bytes, id: id, into: &read)
            return read
        }
        #expect(try decoded(bytes, id: 1) == counters)
        #expect(try decoded(SQLiteAnalyticsJournal.encode(AnalyticsCounters()), id: 2).isEmpty)
        // Decoding adds: into the opposite counters, it leaves nothing.
        var opposite = AnalyticsCounters()
        for (key, value) in counters.values { opposite.add(-value, to: key) }
        try SQLiteAnalyticsJournal.decode(bytes, id: 3, into: &opposite)
        #expect(opposite.isEmpty)
        for length in 1..<bytes.count {
            do {
                let read = try decoded(bytes.prefix(length), id: 7)
                // A cut between two counters reads as fewer counters, never as other ones.
                #expect(read.values.allSatisfy { counters.values[$0.key] == $0.value })
            } catch {
                guard case .corruptRow(let table, let key, _) = error else { throw error }
                #expect(table == "evidence" && key == "7")
            }
        }
    }

    /// A change written before offer types (definitions 2: no leading 0, four strings a segment)
    /// may wait for a fold across an upgrade: it reads with no offer type.
    @Test func aRowWrittenBeforeOfferTypesReadsWithoutThem() throws {
        var bytes: [UInt8] = [1]
        for text in ["Production", "pro", "USA", "USD"] { bytes += [UInt8(text.utf8.count)] + Array(text.utf8) }
        // Segment 0, mrrGrossChange, day 5 and value 1 zigzagged.
        bytes += [0, UInt8(AnalyticsMetric.mrrGrossChange.rawValue), 10, 2]
        var read = AnalyticsCounters()
        try SQLiteAnalyticsJournal.decode(Data(bytes), id: 1, into: &read)
        let key = AnalyticsCounters.Key(environment: .production, metric: .mrrGrossChange, day: 5, productID: "pro", storefront: "USA", currency: "USD")
        #expect(read.values == [key: 1])
    }
}

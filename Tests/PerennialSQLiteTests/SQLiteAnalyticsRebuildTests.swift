import Foundation
import GRDB
import PerennialCore
@testable import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// A rebuild that meets a stored record it cannot read stops with a typed error naming the row,
/// and leaves the counters as they were (the rebuild is one transaction). Counters that drifted
/// from the records are corrected, and a correction computed before another was written is not
/// written (it would count the difference twice).
@Suite struct SQLiteAnalyticsRebuildTests {
    private typealias P = AnalyticsPopulation

    private static let request = AnalyticsCounterRequest(
        appBundleID: P.bundleID, environment: .production, dimension: .product, fromDay: 0, throughDay: 100_000)
    private static let apps = [P.bundleID: SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))]

    private func applying(_ evidence: some Sequence<IncomingEvidence>, to storage: SQLiteStorage) async throws {
        for item in evidence { _ = try await storage.apply(item, with: P.applier, now: P.at(4, 1)) }
    }

    private func counters(_ storage: SQLiteStorage) async throws -> Set<AnalyticsCounterRow> {
        Set(try await storage.analyticsCounters(Self.request).filter { $0.value != 0 })
    }

    /// Folds the journal and makes the counters table disagree with the records (as after a change
    /// of the catalog's prices): a counter off by three, some gone, one the records never gave.
    private func drift(_ path: String) async throws {
        try await DatabaseQueue(path: path).write { db in
            try SQLiteAnalyticsJournal.fold(db)
            try db.execute(sql: "UPDATE analytics_counters SET value = value + 3 WHERE metric = \(AnalyticsMetric.activeChange.rawValue)")
            try db.execute(sql: "DELETE FROM analytics_counters WHERE day % 2 = 0 AND metric <> \(AnalyticsMetric.activeChange.rawValue)")
            try db.execute(
                sql: """
                    INSERT INTO analytics_counters (app_bundle_id, environment, dimension, day, metric, segment, currency, value)
                    VALUES (?, 'Production', 0, 20000, \(AnalyticsMetric.newPaid.rawValue), 'ghost', '', 5)
                    """, arguments: [P.bundleID])
        }
    }

    /// The drifted counters are set right, with the journal's changes not folded at the snapshot
    /// counted as the counters they are; no row is left at zero.
    @Test func driftIsCorrected() async throws {
        let all = P.evidence(copies: 4)
        let lastCopy = all.count - P.evidence.count
        var expected: Set<AnalyticsCounterRow> = []
        try await withTemporarySQLiteFile { path in
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            try await applying(all, to: storage)
            expected = try await counters(storage)
        }
        #expect(!expected.isEmpty)
        try await withTemporarySQLiteFile { path in
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            try await applying(all[..<lastCopy], to: storage)
            try await drift(path)
            try await applying(all[lastCopy...], to: storage)
            #expect(try await counters(storage) != expected)
            let rebuild = try await storage.rebuildAnalytics(apps: Self.apps)
            #expect(rebuild.subscriptions == 7 * 4)
            #expect(try await counters(storage) == expected)
            let zeros = try await DatabaseQueue(path: path).read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM analytics_counters WHERE value = 0 OR segment = 'ghost'")
            }
            #expect(zeros == 0)
        }
    }

    /// Two rebuilds' snapshots before either writes: the first correction is written, the second
    /// is not (it would add the same difference again), and a rebuild then reads a new snapshot.
    @Test func aCorrectionFromBeforeAnotherIsNotWritten() async throws {
        try await withTemporarySQLiteFile { path in
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            try await applying(P.evidence, to: storage)
            let expected = try await counters(storage)
            try await drift(path)
            let first = try await storage.analyticsSnapshot(apps: Self.apps)
            let second = try await storage.analyticsSnapshot(apps: Self.apps)
            #expect(try await storage.correctAnalytics(with: first)?.subscriptions == 7)
            #expect(try await storage.correctAnalytics(with: second) == nil)
            #expect(try await counters(storage) == expected)
            #expect(try await storage.rebuildAnalytics(apps: Self.apps).subscriptions == 7)
            #expect(try await counters(storage) == expected)
        }
    }

    @Test func aCorruptRecordFailsTheRebuildAndKeepsTheCounters() async throws {
        try await withTemporarySQLiteFile { path in
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            for item in AnalyticsPopulation.evidence {
                _ = try await storage.apply(item, with: AnalyticsPopulation.applier, now: AnalyticsPopulation.at(4, 1))
            }
            let request = AnalyticsCounterRequest(
                appBundleID: AnalyticsPopulation.bundleID, environment: .production, dimension: .product, fromDay: 0, throughDay: 100_000)
            let before = try await storage.analyticsCounters(request)
            #expect(!before.isEmpty)

            let raw = try DatabaseQueue(path: path)
            try await raw.write { db in
                try db.execute(sql: "UPDATE transactions SET record = substr(record, 1, 40) WHERE transaction_id = 'A3'")
            }
            let facts = SubscriptionFacts(catalog: AnalyticsPopulation.catalog, now: AnalyticsPopulation.at(4, 1))
            do {
                _ = try await storage.rebuildAnalytics(apps: [AnalyticsPopulation.bundleID: facts])
                Issue.record("the rebuild read a truncated record")
            } catch let error as StorageError {
                guard case .corruptRow(let table, let key, _) = error else { throw error }
                #expect(table == "transactions" && key == "A")
            }
            #expect(try await storage.analyticsCounters(request) == before)
        }
    }
}

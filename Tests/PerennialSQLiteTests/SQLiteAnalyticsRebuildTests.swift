import Foundation
import GRDB
import PerennialCore
import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// A rebuild that meets a stored record it cannot read stops with a typed error naming the row,
/// and leaves the counters as they were (the rebuild is one transaction).
@Suite struct SQLiteAnalyticsRebuildTests {
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
            let facts = SubscriptionFacts(catalog: AnalyticsPopulation.catalog)
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

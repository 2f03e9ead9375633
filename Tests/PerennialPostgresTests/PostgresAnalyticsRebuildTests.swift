import Foundation
import PerennialCore
@testable import PerennialPostgres
import PerennialStorage
import PerennialStorageContract
import PostgresNIO
import Testing

/// The rebuild on PostgreSQL sums the records on one snapshot and then corrects the counters by
/// what that snapshot's counters got wrong, so applies go on meanwhile: what they add between its
/// read and its correction is kept, and counters that had drifted from the records are set right.
/// Two rebuilds of one schema run one after the other.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresAnalyticsRebuildTests {
    private typealias P = AnalyticsPopulation

    private static let request = AnalyticsCounterRequest(
        appBundleID: P.bundleID, environment: .production, dimension: .product, fromDay: 0, throughDay: 100_000)
    private static let apps = [P.bundleID: SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))]

    private func storage(applying evidence: [IncomingEvidence], in database: PostgresTestDatabase) async throws -> PostgresStorage {
        let storage = try await database.makeStorage()
        try await storage.migrate()
        for item in evidence { _ = try await storage.apply(item, with: P.applier, now: P.at(4, 1)) }
        return storage
    }

    private func counters(_ storage: PostgresStorage) async throws -> Set<AnalyticsCounterRow> {
        Set(try await storage.analyticsCounters(Self.request).filter { $0.value != 0 })
    }

    @Test func appliesDuringARebuildKeepTheirChangesAndDriftIsCorrected() async throws {
        // Meanwhile: a third of the evidence of five copies of the population, and a sixth copy
        // whole (subscriptions the snapshot does not hold at all).
        let all = P.evidence(copies: 6)
        let lastCopy = all.count - P.evidence.count
        let between = all.indices.filter { $0 % 3 == 0 || $0 >= lastCopy }.map { all[$0] }
        let before = all.indices.filter { $0 % 3 != 0 && $0 < lastCopy }.map { all[$0] }
        try await PostgresTestDatabase.with { database in
            let expected = try await counters(try await storage(applying: all, in: database))
            #expect(!expected.isEmpty)

            let storage = try await storage(applying: before, in: database)
            // Counters that no longer match the records, as after a change of the catalog's prices.
            // Active subscriptions drifted up by 3 on every day kept; every other counter of even days lost.
            let active = Int(AnalyticsMetric.activeChange.rawValue)
            try await storage.client.query("UPDATE analytics_counters SET value = value + 3 WHERE metric = \(active)")
            try await storage.client.query("DELETE FROM analytics_counters WHERE day % 2 = 0 AND metric <> \(active)")
            #expect(try await counters(storage) != expected)

            let snapshot = try await storage.analyticsSnapshot(apps: Self.apps)
            for item in between { _ = try await storage.apply(item, with: P.applier, now: P.at(4, 1)) }
            let rebuild = try await storage.correctAnalytics(with: snapshot)
            let touched = Set(before.flatMap(\.originalTransactionIDs))
            #expect(rebuild.subscriptions == touched.count && touched.count < 7 * 6)
            #expect(try await counters(storage) == expected)
        }
    }

    /// A rebuild waits for one running in the same schema (here, its lock held by another
    /// connection), then runs and finds the same counters.
    @Test func aRebuildWaitsForTheOneRunning() async throws {
        try await PostgresTestDatabase.with { database in
            let storage = try await storage(applying: P.evidence, in: database)
            let kept = try await counters(storage)
            try await storage.client.withConnection { holder in
                let lock = "SELECT pg_advisory_lock(\(PostgresStorage.rebuildLockClass), hashtext(current_schema()))"
                try await holder.query(PostgresQuery(unsafeSQL: lock), logger: holder.logger)
                let rebuild = Task { try await storage.rebuildAnalytics(apps: Self.apps) }
                // It is waiting once the server shows its lock request not granted.
                var waiting = false
                for _ in 0..<500 where !waiting {
                    let rows = try await holder.query(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = \(PostgresStorage.rebuildLockClass)",
                        logger: holder.logger)
                    for try await count in rows.decode(Int64.self) { waiting = count > 0 }
                    if !waiting { try await Task.sleep(for: .milliseconds(10)) }
                }
                #expect(waiting)
                let unlock = "SELECT pg_advisory_unlock(\(PostgresStorage.rebuildLockClass), hashtext(current_schema()))"
                try await holder.query(PostgresQuery(unsafeSQL: unlock), logger: holder.logger)
                #expect(try await rebuild.value.subscriptions == 7)
            }
            #expect(try await counters(storage) == kept)
        }
    }
}

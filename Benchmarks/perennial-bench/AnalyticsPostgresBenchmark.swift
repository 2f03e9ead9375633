import Foundation
import GRDB
import PerennialCore
import PerennialPostgres
import PerennialServer
import PerennialStorage
import PerennialStorageContract
import PostgresNIO

/// The analytics benchmark's population on PostgreSQL (when `PERENNIAL_POSTGRES_URL` names a
/// server): copied from the SQLite file the SQLite half generated into a fresh database, then the
/// rebuild and the overview measured there, beside a bare read of the same counter rows.
enum AnalyticsPostgresBenchmark {
    static func run(
        url: String, from sqlitePath: String, subscribers: Int, apps: AppRegistry, clock: any TimeSource, query: AnalyticsQuery
    ) async throws -> [BenchmarkRow] {
        guard var components = URLComponents(string: url) else { throw BenchmarkFailure("PERENNIAL_POSTGRES_URL is not a URL") }
        let name = "perennial_bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = PostgresClient(configuration: try PostgresStorage.configuration(url: url))
        let adminRun = Task { await admin.run() }
        defer { adminRun.cancel() }
        try await admin.query("CREATE DATABASE \(unescaped: name)")
        components.path = "/" + name
        let storage = PostgresStorage(configuration: try PostgresStorage.configuration(url: components.string ?? url))
        let storageRun = Task { await storage.run() }
        var rows: [BenchmarkRow] = []
        var failure: (any Error)?
        do {
            try await storage.migrate()
            try await copy(from: sqlitePath, to: storage.client)
            let facts = SubscriptionFacts(catalog: AnalyticsPopulation.catalog, now: clock.now)
            var rebuild = try await measure("PostgreSQL: rebuild the counters", iterations: 1, rounds: 1) {
                let result = try await storage.rebuildAnalytics(apps: [AnalyticsBenchmark.bundleID: facts])
                guard result.subscriptions == subscribers else { throw BenchmarkFailure("rebuilt \(result.subscriptions) subscriptions") }
            }
            rebuild.iterations = subscribers
            rebuild.note = String(format: "%.0f subscribers/s (target ≥ 50,000 at 1,000,000 subscribers)", rebuild.operationsPerSecond)
            let analytics = Analytics(apps: apps, storage: storage, clock: clock)
            let client = storage.client
            let firstDay = AnalyticsCounters.day(of: query.from) - 365
            let bare = try await measure("PostgreSQL floor: read a year's counter rows bare", iterations: 5, note: "baseline") {
                var count = 0
                for try await _ in try await client.query(
                    "SELECT metric, day, value FROM analytics_counters WHERE app_bundle_id = \(AnalyticsBenchmark.bundleID) AND environment = 'Production' AND dimension = 0 AND day >= \(Int32(firstDay))"
                ).decode((Int32, Int32, Int64).self) { count += 1 }
                blackHole(count)
            }
            var overview = try await measure("PostgreSQL overview: a year by day", iterations: 5) {
                blackHole(try await analytics.report(query))
            }
            overview.note = String(format: "%.1f ms (target ≤ 100 ms), %.1f× the bare read", overview.microsecondsPerOperation / 1000,
                overview.microsecondsPerOperation / bare.microsecondsPerOperation)
            rows = [rebuild, bare, overview]
        } catch {
            failure = error
        }
        storageRun.cancel()
        try await admin.query("DROP DATABASE \(unescaped: name) WITH (FORCE)")
        if let failure { throw failure }
        return rows
    }

    /// The records, renewal infos and schedule rows of the SQLite file, 5,000 rows a statement.
    private static func copy(from path: String, to client: PostgresClient) async throws {
        let queue = try DatabaseQueue(path: path)
        var after = ""
        while true {
            let batch = try queue.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT transaction_id, original_transaction_id, record, version_date FROM transactions WHERE transaction_id > ? ORDER BY transaction_id LIMIT 5000",
                    arguments: [after])
            }
            guard let last = batch.last else { break }
            after = last[0]
            let ids: [String] = batch.map { $0[0] }
            let originals: [String] = batch.map { $0[1] }
            let records: [String] = batch.map { $0[2] }
            let dates: [Double] = batch.map { $0[3] }
            try await client.query("""
                INSERT INTO transactions (transaction_id, original_transaction_id, record, version_date, is_signed)
                SELECT id, original, record, version_date, true FROM unnest(\(ids)::text[], \(originals)::text[], \(records)::text[], \(dates)::float8[])
                    AS t(id, original, record, version_date)
                """)
        }
        after = ""
        while true {
            let batch = try queue.read { db in
                try Row.fetchAll(
                    db, sql: """
                        SELECT r.original_transaction_id, r.record, r.version_date, c.app_bundle_id FROM renewal_infos r
                        JOIN reconciliation_checks c USING (original_transaction_id)
                        WHERE r.original_transaction_id > ? ORDER BY r.original_transaction_id LIMIT 5000
                        """, arguments: [after])
            }
            guard let last = batch.last else { break }
            after = last[0]
            let ids: [String] = batch.map { $0[0] }
            let records: [String] = batch.map { $0[1] }
            let dates: [Double] = batch.map { $0[2] }
            let apps: [String] = batch.map { $0[3] }
            try await client.query("""
                INSERT INTO renewal_infos (original_transaction_id, record, version_date, is_signed)
                SELECT id, record, version_date, true FROM unnest(\(ids)::text[], \(records)::text[], \(dates)::float8[]) AS r(id, record, version_date)
                """)
            try await client.query("""
                INSERT INTO reconciliation_checks (original_transaction_id, app_bundle_id, environment)
                SELECT id, app, 'Production' FROM unnest(\(ids)::text[], \(apps)::text[]) AS c(id, app)
                """)
        }
    }
}

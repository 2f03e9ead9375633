import Foundation
import GRDB
public import PerennialCore
public import PerennialStorage

extension SQLiteStorage {
    public func analyticsCounters(_ request: AnalyticsCounterRequest) async throws(StorageError) -> [AnalyticsCounterRow] {
        try await read("read analytics counters of \(request.appBundleID)") { db in
            let arguments: StatementArguments = [request.appBundleID, request.environment.rawValue, request.dimension.rawValue]
            var rows: [AnalyticsCounterRow] = []
            let before = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT metric, segment, currency, SUM(value) FROM analytics_counters
                        WHERE app_bundle_id = ? AND environment = ? AND dimension = ? AND day < ? AND metric < 10
                        GROUP BY metric, segment, currency
                        """), arguments: arguments + [request.fromDay])
            while let row = try before.next() {
                rows.append(
                    AnalyticsCounterRow(
                        metric: AnalyticsMetric(rawValue: row[0]), day: request.fromDay - 1, segment: row[1], currency: row[2], value: row[3]))
            }
            let inRange = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT metric, day, segment, currency, value FROM analytics_counters
                        WHERE app_bundle_id = ? AND environment = ? AND dimension = ? AND day >= ? AND day <= ? AND value <> 0
                        """), arguments: arguments + [request.fromDay, request.throughDay])
            while let row = try inRange.next() {
                rows.append(AnalyticsCounterRow(metric: AnalyticsMetric(rawValue: row[0]), day: row[1], segment: row[2], currency: row[3], value: row[4]))
            }
            return rows
        }
    }

    /// Reads the subscriptions in batches of their original transaction ids (each with the app of
    /// the evidence that last touched it, kept by the reconciliation schedule), sums their facts in
    /// memory, and replaces the table in one transaction.
    public func rebuildAnalytics(facts: @escaping @Sendable (String) -> SubscriptionFacts?) async throws(StorageError) -> AnalyticsRebuild {
        try await write("rebuild analytics") { db in
            var counters: [String: AnalyticsCounters] = [:]
            var subscriptions = 0
            var after = ""
            while true {
                let batch = try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT original_transaction_id, app_bundle_id FROM reconciliation_checks
                            WHERE original_transaction_id > ? ORDER BY original_transaction_id LIMIT 1000
                            """), arguments: [after])
                guard let last = batch.last else { break }
                after = last[0]
                for row in batch {
                    let id: String = row[0]
                    let app: String = row[1]
                    guard let appFacts = facts(app) else { continue }
                    let records = try SQLiteRows.records(of: [id], db)
                    guard let ledger = records.ledger(originalTransactionID: id) else { continue }
                    appFacts.add(ledger, to: &counters[app, default: AnalyticsCounters()])
                    subscriptions += 1
                }
            }
            try db.execute(sql: "DELETE FROM analytics_counters")
            var rows = 0
            for (app, appCounters) in counters {
                let stored = appCounters.storedRows
                try SQLiteRows.addAnalytics(stored, app: app, db)
                rows += stored.count
            }
            return AnalyticsRebuild(subscriptions: subscriptions, rows: rows)
        }
    }
}

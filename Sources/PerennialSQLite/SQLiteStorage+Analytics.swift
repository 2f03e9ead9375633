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
            let pending = try SQLiteAnalyticsJournal.pending(app: request.appBundleID, db)
            return pending.isEmpty ? rows : Self.adding(pending, to: rows, request)
        }
    }

    /// `rows` with the journal's changes not folded yet added, still one row per metric, day,
    /// segment and currency.
    private static func adding(_ pending: AnalyticsCounters, to rows: [AnalyticsCounterRow], _ request: AnalyticsCounterRequest) -> [AnalyticsCounterRow] {
        struct Place: Hashable {
            var metric: AnalyticsMetric
            var day: Int
            var segment: String
            var currency: String
        }
        var sums: [Place: Int64] = [:]
        var order: [Place] = []
        func add(_ place: Place, _ value: Int64) {
            if sums[place] == nil { order.append(place) }
            sums[place, default: 0] += value
        }
        for row in rows { add(Place(metric: row.metric, day: row.day, segment: row.segment, currency: row.currency), row.value) }
        for row in pending.storedRows where row.environment == request.environment && row.dimension == request.dimension {
            if row.day >= request.fromDay && row.day <= request.throughDay {
                add(Place(metric: row.metric, day: row.day, segment: row.segment, currency: row.currency), row.value)
            } else if row.day < request.fromDay && row.metric.rawValue < 10 {
                add(Place(metric: row.metric, day: request.fromDay - 1, segment: row.segment, currency: row.currency), row.value)
            }
        }
        return order.map { AnalyticsCounterRow(metric: $0.metric, day: $0.day, segment: $0.segment, currency: $0.currency, value: sums[$0]!) }
    }

    /// Folds the changes not folded yet (``SQLiteAnalyticsJournal``), so that every app's counters
    /// are whole; reads the subscriptions in batches of their original transaction ids (each with
    /// the app of the evidence that last touched it, kept by the reconciliation schedule), sums the
    /// facts of those of `apps` in memory, and replaces those apps' counters, in one transaction.
    ///
    /// Decoding each record's JSON is nearly all of the cost, so each batch's rows are read on the
    /// connection and decoded and summed on every core while the next batch is read
    /// (``PerennialStorage/AnalyticsRebuildSums``), bypassing the
    /// process's ``PerennialStorage/DecodedRecordCache``, which a one-pass read would only churn.
    public func rebuildAnalytics(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsRebuild {
        try await write("rebuild analytics") { db in
            try SQLiteAnalyticsJournal.fold(db)
            let sums = AnalyticsRebuildSums()
            var unknownApps: [String: Int] = [:]
            var after = ""
            while true {
                let batch = try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT original_transaction_id, app_bundle_id FROM reconciliation_checks
                            WHERE original_transaction_id > ? ORDER BY original_transaction_id LIMIT 1000
                            """), arguments: [after])
                guard let last = batch.last else { break }
                let first = after
                after = last[0]
                // The batch's rows in two range scans of the original-transaction index, not two
                // queries per subscription: reading is the part that does not spread over the cores.
                var transactions: [String: [String]] = [:]
                let transactionRows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: "SELECT original_transaction_id, record FROM transactions WHERE original_transaction_id > ? AND original_transaction_id <= ?"),
                    arguments: [first, after])
                while let row = try transactionRows.next() { transactions[row[0], default: []].append(row[1]) }
                var renewalInfos: [String: String] = [:]
                let renewalRows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: "SELECT original_transaction_id, record FROM renewal_infos WHERE original_transaction_id > ? AND original_transaction_id <= ?"),
                    arguments: [first, after])
                while let row = try renewalRows.next() { renewalInfos[row[0]] = row[1] }
                try sums.add(
                    batch.compactMap { row in
                        let (id, app): (String, String) = (row[0], row[1])
                        guard let facts = apps[app] else {
                            unknownApps[app, default: 0] += 1
                            return nil
                        }
                        return AnalyticsRebuildSums.Subscription(
                            id: id, app: app, facts: facts, transactions: transactions[id] ?? [], renewalInfo: renewalInfos[id])
                    })
            }
            let (counters, subscriptions) = try sums.finish()
            let delete = try db.cachedStatement(sql: "DELETE FROM analytics_counters WHERE app_bundle_id = ?")
            for app in apps.keys { try delete.execute(arguments: [app]) }
            var rows = 0
            for (app, appCounters) in counters {
                let stored = appCounters.storedRows
                try SQLiteRows.addAnalytics(stored, app: app, db)
                rows += stored.count
            }
            return AnalyticsRebuild(subscriptions: subscriptions, rows: rows, unknownApps: unknownApps)
        }
    }
}

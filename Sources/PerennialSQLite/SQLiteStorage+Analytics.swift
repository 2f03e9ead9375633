import Foundation
import GRDB
import GRDBSQLite
public import PerennialCore
public import PerennialStorage

extension SQLiteStorage {
    public func analyticsCounters(_ request: AnalyticsCounterRequest) async throws(StorageError) -> [AnalyticsCounterRow] {
        try await read("read analytics counters of \(request.appBundleID)") { db in
            let arguments: StatementArguments = [request.appBundleID, request.environment.rawValue, request.dimension.rawValue]
            var rows: [AnalyticsCounterRow] = []
            let before = !request.summingEarlierChanges ? nil : try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT metric, segment, currency, SUM(value) FROM analytics_counters
                        WHERE app_bundle_id = ? AND environment = ? AND dimension = ? AND day < ? AND (metric < 10 OR (metric >= 70 AND metric < 80))
                        GROUP BY metric, segment, currency
                        """), arguments: arguments + [request.fromDay])
            while let row = try before?.next() {
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

    public func analyticsDefinitions() async throws(StorageError) -> Int {
        try await read("read the analytics definitions") { db in try Int.fetchOne(db, sql: "SELECT version FROM analytics_definitions") ?? 1 }
    }

    public func recordAnalyticsDefinitions(_ version: Int) async throws(StorageError) {
        try await write("record the analytics definitions") { db in
            try db.execute(sql: "UPDATE analytics_definitions SET version = ?", arguments: [version])
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
            } else if request.summingEarlierChanges && row.day < request.fromDay && row.metric.isChange {
                add(Place(metric: row.metric, day: request.fromDay - 1, segment: row.segment, currency: row.currency), row.value)
            }
        }
        return order.map { AnalyticsCounterRow(metric: $0.metric, day: $0.day, segment: $0.segment, currency: $0.currency, value: sums[$0]!) }
    }

    /// Sums the facts of the subscriptions of `apps` on a read snapshot, with the counters that
    /// snapshot held, then writes their ``PerennialStorage/AnalyticsCorrection`` in a short write
    /// transaction: applies go on while it reads (a rebuild of 1,000,000 subscriptions reads for
    /// 13–18 s, longer than a writer waits for the file's lock) and keep the changes they make
    /// meanwhile. A rebuild that finds another's correction written since its snapshot (a second
    /// `perennial analytics rebuild` on the same file) would add the difference again: it reads a
    /// new snapshot and corrects from there.
    public func rebuildAnalytics(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsRebuild {
        while true {
            if let rebuild = try await correctAnalytics(with: try await analyticsSnapshot(apps: apps)) { return rebuild }
        }
    }

    /// A rebuild's sums at one snapshot of the records, and the counters of the same snapshot.
    struct AnalyticsSnapshot: Sendable {
        var rebuilt: [String: AnalyticsCounters]
        /// Every rebuilt app's counters table rows and its journal's changes not folded yet.
        var kept: [String: [AnalyticsStoredRow]]
        var subscriptions: Int
        var unknownApps: [String: Int]
        /// The corrections written before the snapshot (`analytics_folded.rebuilds`).
        var rebuilds: Int64
    }

    /// Reads the subscriptions in batches of their original transaction ids (each with the app of
    /// the evidence that last touched it, kept by the reconciliation schedule) and sums the facts of
    /// those of `apps`, and reads those apps' counters, all on one read snapshot: a snapshot
    /// connection of the file's pool, which holds its read transaction open between batches (an
    /// in-memory database, one connection, is read as it is).
    ///
    /// Decoding each record's JSON is nearly all of the cost, so each batch's rows are read on the
    /// connection and decoded and summed on every core while the next batch is read
    /// (``PerennialStorage/AnalyticsRebuildSums``), bypassing the
    /// process's ``PerennialStorage/DecodedRecordCache``, which a one-pass read would only churn.
    func analyticsSnapshot(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsSnapshot {
        let operation = "rebuild analytics: sum the records"
        do {
            let reader: any DatabaseReader = try (writer as? DatabasePool)?.makeSnapshot() ?? writer
            let (kept, rebuilds) = try await reader.read { db in
                var kept: [String: [AnalyticsStoredRow]] = [:]
                for app in apps.keys { kept[app] = try Self.counters(of: app, db) }
                return (kept, try Int64.fetchOne(db, sql: "SELECT rebuilds FROM analytics_folded") ?? 0)
            }
            var unknownApps: [String: Int] = [:]
            let (rebuilt, subscriptions) = try await AnalyticsRebuildSums.sum { add in
                var after = ""
                while true {
                    let first = after
                    let read = try await reader.read { db in try Self.rebuildBatch(after: first, apps: apps, db) }
                    guard let last = read.last else { break }
                    after = last
                    unknownApps.merge(read.unknownApps, uniquingKeysWith: +)
                    if !read.batch.isEmpty { try await add(read.batch) }
                }
            }
            return AnalyticsSnapshot(rebuilt: rebuilt, kept: kept, subscriptions: subscriptions, unknownApps: unknownApps, rebuilds: rebuilds)
        } catch {
            throw Self.storageError(error, operation: operation)
        }
    }

    /// One app's counters as a read sums them: its rows of the counters table, and the journal's
    /// changes not folded yet as rows of their own.
    private static func counters(of app: String, _ db: Database) throws -> [AnalyticsStoredRow] {
        var counters: [AnalyticsStoredRow] = []
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT environment, dimension, day, metric, segment, currency, value FROM analytics_counters WHERE app_bundle_id = ?"),
            arguments: [app])
        while let row = try rows.next() {
            let (day, metric): (Int, Int) = (row[2], row[3])
            guard let dimension = AnalyticsDimension(rawValue: row[1]) else {
                throw StorageError.corruptRow(table: "analytics_counters", key: "\(app)/\(day)/\(metric)", reason: "dimension \(row[1] as Int)")
            }
            counters.append(
                AnalyticsStoredRow(
                    environment: AppStoreEnvironment(rawValue: row[0]), dimension: dimension, segment: row[4], metric: AnalyticsMetric(rawValue: metric),
                    currency: row[5], day: day, value: row[6]))
        }
        return counters + (try SQLiteAnalyticsJournal.pending(app: app, db).storedRows)
    }

    /// One batch of a rebuild: the next thousand subscriptions after `after`, those of known apps
    /// with their records, the last id read (nil past the end) and the subscriptions of other apps.
    private static func rebuildBatch(
        after: String, apps: [String: SubscriptionFacts], _ db: Database
    ) throws -> (batch: AnalyticsRebuildSums.Batch, last: String?, unknownApps: [String: Int]) {
        // The batch's subscriptions of known apps: their ids, in order, and their numbers in `batch`.
        var batch = AnalyticsRebuildSums.Batch()
        var known: [(id: String, number: Int)] = []
        var unknownApps: [String: Int] = [:]
        var last: String?
        let subscriptions = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT original_transaction_id, app_bundle_id FROM reconciliation_checks
                    WHERE original_transaction_id > ? ORDER BY original_transaction_id LIMIT 1000
                    """), arguments: [after])
        while let row = try subscriptions.next() {
            let (id, app): (String, String) = (row[0], row[1])
            last = id
            guard let facts = apps[app] else {
                unknownApps[app, default: 0] += 1
                continue
            }
            known.append((id, batch.add(id: id, app: app, facts: facts)))
        }
        guard let last else { return (batch, nil, unknownApps) }
        // The batch's rows in two range scans of the original-transaction index, in its order, so
        // each row finds its subscription by walking `known` alongside: reading is the part that
        // does not spread over the cores.
        for table in ["transactions", "renewal_infos"] {
            let rows = try db.cachedStatement(
                sql: """
                    SELECT original_transaction_id, record FROM \(table)
                    WHERE original_transaction_id > ? AND original_transaction_id <= ? ORDER BY original_transaction_id
                    """)
            try forEachRow(of: rows, arguments: [after, last], in: known) { number, json in
                if table == "transactions" { batch.addTransaction(json, of: number) } else { batch.setRenewalInfo(json, of: number) }
            }
        }
        return (batch, last, unknownApps)
    }

    /// Runs `statement`, whose rows are (original transaction id, record) in id order, and hands
    /// each row of a subscription of `known` (in the same order) to `body` with its number, the
    /// record's bytes read in place from SQLite's buffer (valid only during the call).
    private static func forEachRow(
        of statement: Statement, arguments: StatementArguments, in known: [(id: String, number: Int)],
        _ body: (Int, UnsafeRawBufferPointer) -> Void
    ) throws {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let sqlite = statement.sqliteStatement
        var next = 0
        while try rows.next() != nil {
            let id = UnsafeRawBufferPointer(start: sqlite3_column_text(sqlite, 0), count: Int(sqlite3_column_bytes(sqlite, 0)))
            // SQLite orders text by its bytes (the BINARY collation), as this comparison does.
            while next < known.count, compare(known[next].id, id) < 0 { next += 1 }
            guard next < known.count, compare(known[next].id, id) == 0 else { continue }
            body(known[next].number, UnsafeRawBufferPointer(start: sqlite3_column_text(sqlite, 1), count: Int(sqlite3_column_bytes(sqlite, 1))))
        }
    }

    /// The byte order of a string's UTF-8 and `bytes`: negative, zero or positive.
    private static func compare(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Int {
        var string = string
        return string.withUTF8 { utf8 in
            let common = min(utf8.count, bytes.count)
            let order = common == 0 ? 0 : Int(memcmp(utf8.baseAddress!, bytes.baseAddress!, common))
            return order != 0 ? order : utf8.count - bytes.count
        }
    }

    /// Writes the snapshot's ``PerennialStorage/AnalyticsCorrection`` in one write transaction,
    /// unless another rebuild's was written since the snapshot: nil then. The journal is folded
    /// first, so the counters the correction leaves at zero are zero in the table too, and deleted.
    func correctAnalytics(with snapshot: consuming AnalyticsSnapshot) async throws(StorageError) -> AnalyticsRebuild? {
        // Handed over, not shared: the correction lets each app's sums go once it has read them.
        let rebuilt = snapshot.rebuilt
        snapshot.rebuilt = [:]
        let correction = AnalyticsCorrection(
            rebuilt: consume rebuilt, kept: snapshot.kept, subscriptions: snapshot.subscriptions, unknownApps: snapshot.unknownApps)
        let rebuilds = snapshot.rebuilds
        return try await write("rebuild analytics: correct the counters") { db in
            try db.execute(sql: "UPDATE analytics_folded SET rebuilds = rebuilds + 1 WHERE rebuilds = ?", arguments: [rebuilds])
            guard db.changesCount == 1 else { return nil }
            try SQLiteAnalyticsJournal.fold(db)
            for app in correction.apps {
                for rows in app.additions(by: 5_000) { try SQLiteRows.addAnalytics(rows, app: app.bundleID, db) }
                try SQLiteRows.deleteAnalyticsZeros(app.deletions, app: app.bundleID, db)
            }
            return correction.rebuild
        }
    }
}

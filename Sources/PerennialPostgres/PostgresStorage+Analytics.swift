public import PerennialCore
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    public func analyticsCounters(_ request: AnalyticsCounterRequest) async throws(StorageError) -> [AnalyticsCounterRow] {
        try await withRows("read analytics counters of \(request.appBundleID)") { rows in
            try await rows.all(PostgresAnalyticsStatements.Counters(request: request)).first ?? []
        }
    }

    /// Sums the facts of the subscriptions of `apps` on one snapshot, then adds to those apps'
    /// counters what the sums differ from the counters of that same snapshot. Applies go on
    /// meanwhile: each keeps adding its own change, and the rebuild corrects only what the
    /// snapshot's counters got wrong (a lock of the counters table for the whole rebuild held
    /// every apply, and with them the pool's connections, for about 75 s per million
    /// subscriptions). Rebuilds of one schema run one after the other (a session advisory lock,
    /// waited for): two overlapping ones would each add the whole correction.
    public func rebuildAnalytics(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsRebuild {
        try await withRows("rebuild analytics") { lock in
            try await lock.connection.query("SELECT pg_advisory_lock(\(Self.rebuildLockClass), hashtext(current_schema()))", logger: lock.logger)
            do {
                let rebuild = try await correctAnalytics(with: try await analyticsSnapshot(apps: apps))
                // The counters may just have changed much (a first rebuild fills them): fresh
                // statistics let the next report's plan use them (on a table filled since the last
                // ANALYZE the planner expected one row and walked the index, a heap page a row:
                // 27,000 pages where a scan reads 730). Only statistics: the correction is
                // committed, so a failure here does not fail the rebuild.
                _ = try? await lock.connection.query("ANALYZE analytics_counters", logger: lock.logger)
                try await lock.connection.query("SELECT pg_advisory_unlock(\(Self.rebuildLockClass), hashtext(current_schema()))", logger: lock.logger)
                return rebuild
            } catch {
                _ = try? await lock.connection.query(
                    "SELECT pg_advisory_unlock(\(Self.rebuildLockClass), hashtext(current_schema()))", logger: lock.logger)
                throw error
            }
        }
    }

    public func analyticsDefinitions() async throws(StorageError) -> Int {
        try await withRows("read the analytics definitions") { rows in
            let result = try await rows.connection.query("SELECT version FROM analytics_definitions", logger: rows.logger)
            for try await version in result.decode(Int32.self) { return Int(version) }
            return 1
        }
    }

    public func recordAnalyticsDefinitions(_ version: Int) async throws(StorageError) {
        try await withRows("record the analytics definitions") { rows in
            _ = try await rows.connection.query("UPDATE analytics_definitions SET version = \(Int32(version))", logger: rows.logger)
        }
    }

    /// The first key of a rebuild's advisory lock; the second is the schema's, so deployments in
    /// two schemas of one database do not wait for each other.
    static let rebuildLockClass: Int32 = 0x5065_7269

    /// A rebuild's sums at one snapshot, and the counters of the same snapshot (every app of the
    /// rebuild has its entry).
    struct AnalyticsSnapshot: Sendable {
        var rebuilt: [String: AnalyticsCounters]
        var kept: [String: [AnalyticsStoredRow]]
        var subscriptions: Int
        var unknownApps: [String: Int]
    }

    /// Reads the subscriptions in batches, sums the facts of those of `apps` in memory, and reads
    /// those apps' counters, in one read-only transaction on one snapshot (`REPEATABLE READ`).
    func analyticsSnapshot(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsSnapshot {
        try await transaction("rebuild analytics: sum the records", readOnlySnapshot: true) { rows in
            var unknownApps: [String: Int] = [:]
            let (rebuilt, subscriptions) = try await AnalyticsRebuildSums.sum { add in
                var after = ""
                while true {
                    let subscriptions = try await rows.all(PostgresAnalyticsStatements.Subscriptions(after: after, limit: 1000))
                    guard let last = subscriptions.last else { break }
                    let first = after
                    after = last.0
                    var batch = AnalyticsRebuildSums.Batch()
                    var known: [String: Int] = [:]
                    for (id, app) in subscriptions {
                        if let facts = apps[app] { known[id] = batch.add(id: id, app: app, facts: facts) } else { unknownApps[app, default: 0] += 1 }
                    }
                    // The batch's records in one row, over the same range of ids (in the same collation)
                    // as the batch's subscriptions.
                    if var records = try await rows.all(PostgresAnalyticsStatements.BatchRecords(after: first, through: after)).first ?? nil {
                        records.json.withUTF8 { utf8 in
                            var offset = 0
                            for index in records.ids.indices {
                                let json = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[offset..<offset + Int(records.lengths[index])])
                                offset += json.count
                                guard let number = known[records.ids[index]] else { continue }
                                if records.kinds[index] == 0 { batch.addTransaction(json, of: number) } else { batch.setRenewalInfo(json, of: number) }
                            }
                        }
                    }
                    if !batch.isEmpty { try await add(batch) }
                }
            }
            var kept: [String: [AnalyticsStoredRow]] = [:]
            for app in apps.keys { kept[app] = try await rows.all(PostgresAnalyticsStatements.AppCounters(app: app)) }
            return AnalyticsSnapshot(rebuilt: rebuilt, kept: kept, subscriptions: subscriptions, unknownApps: unknownApps)
        }
    }

    /// Writes the snapshot's ``PerennialStorage/AnalyticsCorrection`` in one transaction.
    func correctAnalytics(with snapshot: consuming AnalyticsSnapshot) async throws(StorageError) -> AnalyticsRebuild {
        // Handed over, not shared: the correction lets each app's sums go once it has read them.
        let rebuilt = snapshot.rebuilt
        snapshot.rebuilt = [:]
        let correction = AnalyticsCorrection(
            rebuilt: consume rebuilt, kept: snapshot.kept, subscriptions: snapshot.subscriptions, unknownApps: snapshot.unknownApps)
        return try await transaction("rebuild analytics: correct the counters") { rows in
            for app in correction.apps {
                for chunk in app.additions(by: 5_000) {
                    try await rows.run(PostgresAnalyticsStatements.Add(app: app.bundleID, rows: chunk[...]))
                }
                for chunk in Self.chunks(of: app.deletions) {
                    try await rows.run(PostgresAnalyticsStatements.DeleteZeros(app: app.bundleID, rows: chunk))
                }
            }
            return correction.rebuild
        }
    }

    /// A statement's arrays of rows at most 5,000 long.
    private static func chunks(of rows: [AnalyticsStoredRow]) -> [ArraySlice<AnalyticsStoredRow>] {
        stride(from: 0, to: rows.count, by: 5_000).map { rows[$0..<min($0 + 5_000, rows.count)] }
    }
}

public import PerennialCore
public import PerennialStorage

extension PostgresStorage {
    public func analyticsCounters(_ request: AnalyticsCounterRequest) async throws(StorageError) -> [AnalyticsCounterRow] {
        try await withRows("read analytics counters of \(request.appBundleID)") { rows in
            try await rows.all(PostgresAnalyticsStatements.Counters(request: request))
        }
    }

    /// Locks the counters (applies wait), reads the subscriptions in batches, sums the facts of
    /// those of `apps` in memory and replaces those apps' counters, in one transaction.
    public func rebuildAnalytics(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsRebuild {
        try await transaction("rebuild analytics") { rows in
            try await rows.run(PostgresAnalyticsStatements.LockCounters())
            let sums = AnalyticsRebuildSums()
            var unknownApps: [String: Int] = [:]
            var after = ""
            while true {
                let batch = try await rows.all(PostgresAnalyticsStatements.Subscriptions(after: after, limit: 1000))
                guard let last = batch.last else { break }
                after = last.0
                var known: [String: (app: String, facts: SubscriptionFacts)] = [:]
                for (id, app) in batch {
                    if let facts = apps[app] { known[id] = (app, facts) } else { unknownApps[app, default: 0] += 1 }
                }
                var transactions: [String: [String]] = [:]
                var renewalInfos: [String: String] = [:]
                for (kind, id, json) in try await rows.all(PostgresStatements.RecordsOfPurchases(originalTransactionIDs: Array(known.keys))) {
                    if kind == 0 { transactions[id, default: []].append(json) } else { renewalInfos[id] = json }
                }
                try await sums.add(
                    known.map { id, app in
                        AnalyticsRebuildSums.Subscription(
                            id: id, app: app.app, facts: app.facts, transactions: transactions[id] ?? [], renewalInfo: renewalInfos[id])
                    })
            }
            let (counters, subscriptions) = try await sums.finish()
            try await rows.run(PostgresAnalyticsStatements.DeleteApps(bundleIDs: Array(apps.keys)))
            var written = 0
            for (app, appCounters) in counters {
                let stored = appCounters.storedRows
                var start = stored.startIndex
                while start < stored.endIndex {
                    let end = min(start + 5_000, stored.endIndex)
                    try await rows.run(PostgresAnalyticsStatements.Insert(app: app, rows: stored[start..<end]))
                    start = end
                }
                written += stored.count
            }
            return AnalyticsRebuild(subscriptions: subscriptions, rows: written, unknownApps: unknownApps)
        }
    }
}

public import PerennialCore
public import PerennialStorage

extension PostgresStorage {
    public func analyticsCounters(_ request: AnalyticsCounterRequest) async throws(StorageError) -> [AnalyticsCounterRow] {
        try await withRows("read analytics counters of \(request.appBundleID)") { rows in
            try await rows.all(PostgresAnalyticsStatements.Counters(request: request))
        }
    }

    /// Locks the counters (applies wait), reads the subscriptions in batches, sums their facts in
    /// memory and replaces the table, in one transaction.
    public func rebuildAnalytics(facts: @escaping @Sendable (String) -> SubscriptionFacts?) async throws(StorageError) -> AnalyticsRebuild {
        try await transaction("rebuild analytics") { rows in
            try await rows.run(PostgresAnalyticsStatements.LockCounters())
            var counters: [String: AnalyticsCounters] = [:]
            var subscriptions = 0
            var after = ""
            while true {
                let batch = try await rows.all(PostgresAnalyticsStatements.Subscriptions(after: after, limit: 1000))
                guard let last = batch.last else { break }
                after = last.0
                var byApp: [String: [String]] = [:]
                for (id, app) in batch where facts(app) != nil { byApp[app, default: []].append(id) }
                for (app, ids) in byApp {
                    guard let appFacts = facts(app) else { continue }
                    let records = try await rows.records(of: ids)
                    for ledger in records.ledgers {
                        appFacts.add(ledger, to: &counters[app, default: AnalyticsCounters()])
                        subscriptions += 1
                    }
                }
            }
            try await rows.run(PostgresAnalyticsStatements.DeleteAll())
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
            return AnalyticsRebuild(subscriptions: subscriptions, rows: written)
        }
    }
}

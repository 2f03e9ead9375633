package import PerennialCore

/// What a rebuild writes, whatever the back end: for each app, what its counters must gain so
/// that the counters one snapshot held become the sums of the records that same snapshot held,
/// and which counters the records no longer give. Back ends only read the snapshot and write
/// this, as they write an apply's ``WritePlan``.
///
/// A correction, not a replacement, because applies go on while a rebuild reads (a rebuild of a
/// million subscriptions reads for 15 s and more, longer than an apply may wait), each adding its
/// change — its subscriptions' new contribution minus their old, ``WritePlan/analytics`` — in its
/// own transaction. An apply committed after the snapshot is in neither the sums nor the counters
/// held, so it leaves the correction as it is; and adding the correction later to counters that
/// hold its change gives the records' sums plus that change, which is what the records say since
/// (facts are a pure function of the records). Nothing needs replaying or waiting for. Only a
/// correction computed on a snapshot older than another's correction would count the difference
/// twice, so no back end writes one (PostgreSQL runs one rebuild at a time, SQLite reads again).
package struct AnalyticsCorrection: Sendable, Hashable {
    /// One app's writes.
    package struct App: Sendable, Hashable {
        package var bundleID: String
        /// What to add to each counter the sums and the counters held disagree on, none zero,
        /// sorted (so writers lock rows in one order).
        package var additions: [AnalyticsStoredRow]
        /// The counters held that the records no longer give (value zero), sorted: to delete once
        /// the additions are made, where their row is zero. Where it is not, an apply has changed
        /// the counter since the snapshot, and the row is its change.
        package var deletions: [AnalyticsStoredRow]
    }

    /// By bundle id, in its order.
    package var apps: [App]
    /// What the rebuild reports.
    package var rebuild: AnalyticsRebuild

    /// - Parameters:
    ///   - rebuilt: each rebuilt app's sums of its subscriptions' facts at the snapshot (an app
    ///     with no subscriptions left has none).
    ///   - kept: the counters the same snapshot held, for every rebuilt app (none: an empty
    ///     array); a counter may appear more than once (SQLite's counters table and the journal's
    ///     changes not folded yet), its rows are summed.
    ///   - subscriptions: how many subscriptions were summed.
    ///   - unknownApps: subscriptions of apps not rebuilt, by bundle id.
    package init(rebuilt: [String: AnalyticsCounters], kept: [String: [AnalyticsStoredRow]], subscriptions: Int, unknownApps: [String: Int]) {
        var rows = 0
        apps = Set(rebuilt.keys).union(kept.keys).sorted().map { bundleID in
            let sums = rebuilt[bundleID]?.storedRows ?? []
            rows += sums.count
            return Self.correct(bundleID, held: kept[bundleID] ?? [], toward: sums)
        }
        rebuild = AnalyticsRebuild(subscriptions: subscriptions, rows: rows, unknownApps: unknownApps)
    }

    private static func correct(_ bundleID: String, held: [AnalyticsStoredRow], toward sums: [AnalyticsStoredRow]) -> App {
        // By counter (its row with the value zeroed). Wrapping: a corrupt counter near the limits
        // must not stop the process; the database's own addition refuses what overflows.
        var values: [AnalyticsStoredRow: (sum: Int64, held: Int64)] = [:]
        values.reserveCapacity(max(sums.count, held.count))
        for row in sums { values[counter(row), default: (0, 0)].sum &+= row.value }
        for row in held { values[counter(row), default: (0, 0)].held &+= row.value }
        var app = App(bundleID: bundleID, additions: [], deletions: [])
        for (counter, value) in values {
            if value.sum != value.held {
                var addition = counter
                addition.value = value.sum &- value.held
                app.additions.append(addition)
            }
            // `storedRows` gives no zero, so a counter summed to zero is one the records no longer give.
            if value.sum == 0 { app.deletions.append(counter) }
        }
        app.additions.sort()
        app.deletions.sort()
        return app
    }

    private static func counter(_ row: AnalyticsStoredRow) -> AnalyticsStoredRow {
        var counter = row
        counter.value = 0
        return counter
    }
}

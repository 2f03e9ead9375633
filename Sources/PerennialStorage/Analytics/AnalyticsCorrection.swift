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
package struct AnalyticsCorrection: Sendable {
    /// One app's writes.
    package struct App: Sendable {
        package var bundleID: String
        /// What to add to each counter the sums and the counters held disagree on, none zero,
        /// sorted (so writers lock rows in one order): packed, made rows a chunk at a time
        /// (``additions(by:)``), since a first rebuild adds every counter.
        fileprivate var added: [(key: AnalyticsCounters.PackedKey, value: Int64)] = []
        fileprivate var segments: AnalyticsRowSegments
        /// What takes back the rows held that no packed key can name (a corrupt metric or day):
        /// first, outside the order, since no apply ever writes such a row.
        fileprivate var strays: [AnalyticsStoredRow] = []
        /// The counters held that the records no longer give (value zero), sorted: to delete once
        /// the additions are made, where their row is zero. Where it is not, an apply has changed
        /// the counter since the snapshot, and the row is its change.
        package fileprivate(set) var deletions: [AnalyticsStoredRow] = []

        /// Every addition's row, in order.
        package var additions: [AnalyticsStoredRow] { strays + added.map { segments.row($0.key, value: $0.value) } }

        /// The additions' rows, in order, at most `size` at a time.
        package func additions(by size: Int) -> some Sequence<[AnalyticsStoredRow]> {
            let packed = stride(from: 0, to: added.count, by: size).lazy.map { start in
                added[start..<min(start + size, added.count)].map { segments.row($0.key, value: $0.value) }
            }
            return [AnySequence([strays].filter { !$0.isEmpty }), AnySequence(packed)].joined()
        }
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
    ///
    /// Each app's sums are let go once read (the caller handing `rebuilt` over, not keeping a
    /// copy): a million subscriptions' sums are some 60 MB.
    package init(rebuilt: consuming [String: AnalyticsCounters], kept: [String: [AnalyticsStoredRow]], subscriptions: Int, unknownApps: [String: Int]) {
        var rows = 0
        apps = Set(rebuilt.keys).union(kept.keys).sorted().map { bundleID in
            let (app, summed) = Self.correct(bundleID, held: kept[bundleID] ?? [], toward: rebuilt.removeValue(forKey: bundleID) ?? AnalyticsCounters())
            rows += summed
            return app
        }
        rebuild = AnalyticsRebuild(subscriptions: subscriptions, rows: rows, unknownApps: unknownApps)
    }

    /// One app's writes, and how many rows its sums make.
    ///
    /// The sums and the rows held are compared as packed integers (a row's segment numbered once,
    /// its metric, its day) in two tables of sixteen bytes a counter: a rebuild of a million
    /// subscriptions compares a few million rows, which as a dictionary of rows, strings and all,
    /// was most of a rebuild's peak memory. Only the writes are rows.
    private static func correct(_ bundleID: String, held: [AnalyticsStoredRow], toward sums: consuming AnalyticsCounters) -> (App, rows: Int) {
        var segments = AnalyticsRowSegments()
        let summed = segments.sums(of: sums)
        _ = consume sums
        var kept = PackedSums()
        var deletions: [AnalyticsStoredRow] = []
        var deleted = Set<AnalyticsCounters.PackedKey>()
        var strays: [AnalyticsStoredRow: Int64] = [:]
        for row in held {
            guard let key = AnalyticsCounters.PackedKey(exactly: segments.number(of: row), metric: row.metric, day: row.day) else {
                var counter = row
                counter.value = 0
                strays[counter, default: 0] &+= row.value
                continue
            }
            kept.add(row.value, to: key)
            // The sums keep no zero, so a counter summed to zero is one the records no longer give.
            if summed[key] == 0, deleted.insert(key).inserted { deletions.append(segments.row(key, value: 0)) }
        }
        var added: [(key: AnalyticsCounters.PackedKey, value: Int64)] = []
        summed.forEach { key, sum in
            let difference = sum &- kept[key]
            if difference != 0 { added.append((key, difference)) }
        }
        kept.forEach { key, value in
            if summed[key] == 0 { added.append((key, 0 &- value)) }
        }
        // The rows' order (``AnalyticsStoredRow/<``) on the packed keys: day, metric, then the
        // segment's rank among the segments' rows.
        let rank = segments.ranks
        added.sort { ($0.key.day, $0.key.metric.rawValue, rank[$0.key.segment]) < ($1.key.day, $1.key.metric.rawValue, rank[$1.key.segment]) }
        var app = App(bundleID: bundleID, added: added, segments: segments)
        app.strays = strays.compactMap { counter, value in
            var addition = counter
            addition.value = 0 &- value
            return value == 0 ? nil : addition
        }.sorted()
        app.deletions = (deletions + strays.keys).sorted()
        return (app, summed.nonZero)
    }
}

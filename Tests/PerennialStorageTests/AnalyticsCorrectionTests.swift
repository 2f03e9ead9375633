import PerennialCore
import PerennialStorage
import Testing

/// A rebuild's correction, by hand: what the records give minus what the counters held, per
/// counter (each counter a row by product and one by storefront), and the counters the records
/// no longer give to delete.
@Suite struct AnalyticsCorrectionTests {
    private static let app = "com.example.app"

    private func row(
        _ dimension: AnalyticsDimension, _ segment: String, _ metric: AnalyticsMetric, day: Int, currency: String = "", _ value: Int64,
        environment: AppStoreEnvironment = .production
    ) -> AnalyticsStoredRow {
        AnalyticsStoredRow(environment: environment, dimension: dimension, segment: segment, metric: metric, currency: currency, day: day, value: value)
    }

    private func counters(_ entries: [(AnalyticsMetric, day: Int, product: String, storefront: String, currency: String, value: Int64)]) -> AnalyticsCounters {
        var counters = AnalyticsCounters()
        for (metric, day, product, storefront, currency, value) in entries {
            counters.add(value, to: .init(environment: .production, metric: metric, day: day, productID: product, storefront: storefront, currency: currency))
        }
        return counters
    }

    private func correction(rebuilt: AnalyticsCounters?, kept: [AnalyticsStoredRow]) throws -> AnalyticsCorrection.App {
        let correction = AnalyticsCorrection(
            rebuilt: rebuilt.map { [Self.app: $0] } ?? [:], kept: [Self.app: kept], subscriptions: 1, unknownApps: [:])
        #expect(correction.apps.map(\.bundleID) == [Self.app])
        return try #require(correction.apps.first)
    }

    @Test func aCounterOnlyRebuiltIsAdded() throws {
        let app = try correction(rebuilt: counters([(.newPaid, 100, "monthly", "USA", "", 1)]), kept: [])
        #expect(app.additions == [row(.product, "monthly", .newPaid, day: 100, 1), row(.combined, "USA|monthly|", .newPaid, day: 100, 1)])
        #expect(app.deletions.isEmpty)
    }

    @Test func aCounterOnlyKeptIsTakenBackAndDeleted() throws {
        let app = try correction(
            rebuilt: nil, kept: [row(.combined, "USA|monthly|", .newPaid, day: 100, 4), row(.product, "monthly", .newPaid, day: 100, 4)])
        #expect(app.additions == [row(.product, "monthly", .newPaid, day: 100, -4), row(.combined, "USA|monthly|", .newPaid, day: 100, -4)])
        #expect(app.deletions == [row(.product, "monthly", .newPaid, day: 100, 0), row(.combined, "USA|monthly|", .newPaid, day: 100, 0)])
    }

    @Test func aCounterBothRebuiltAndKeptGetsTheDifference() throws {
        let app = try correction(
            rebuilt: counters([(.renewal, 130, "monthly", "USA", "", 3)]),
            kept: [row(.product, "monthly", .renewal, day: 130, 1), row(.combined, "USA|monthly|", .renewal, day: 130, 5)])
        #expect(app.additions == [row(.product, "monthly", .renewal, day: 130, 2), row(.combined, "USA|monthly|", .renewal, day: 130, -2)])
        #expect(app.deletions.isEmpty)
    }

    /// Equal counters need nothing; a counter held at zero (an apply took back what it added) and
    /// no longer given is deleted with nothing to add; rows of one counter held twice (SQLite's
    /// table and its journal's changes not folded yet) are summed first.
    @Test func equalCountersNeedNothingAndZerosAreDeleted() throws {
        let app = try correction(
            rebuilt: counters([(.activeChange, 100, "monthly", "USA", "", 2)]),
            kept: [
                row(.product, "monthly", .activeChange, day: 100, 2),
                row(.combined, "USA|monthly|", .activeChange, day: 100, 5), row(.combined, "USA|monthly|", .activeChange, day: 100, -3),
                row(.product, "monthly", .trialChange, day: 90, 0),
                row(.product, "annual", .newPaid, day: 95, 7), row(.product, "annual", .newPaid, day: 95, -7),
            ])
        #expect(app.additions.isEmpty)
        #expect(app.deletions == [row(.product, "monthly", .trialChange, day: 90, 0), row(.product, "annual", .newPaid, day: 95, 0)])
    }

    @Test func severalCurrenciesSegmentsAndDays() throws {
        let rebuilt = counters([
            (.revenueGross, 100, "monthly", "USA", "USD", 9_990),
            (.revenueGross, 100, "monthly", "FRA", "EUR", 8_990),
            (.renewal, 130, "annual", "USA", "", 1),
        ])
        let app = try correction(
            rebuilt: rebuilt,
            kept: [
                row(.product, "monthly", .revenueGross, day: 100, currency: "USD", 9_990),
                row(.product, "monthly", .revenueGross, day: 100, currency: "EUR", 1_000),
                row(.combined, "USA|monthly|", .revenueGross, day: 100, currency: "USD", 9_990),
                row(.combined, "FRA|monthly|", .revenueGross, day: 100, currency: "EUR", 8_990),
                row(.product, "trial", .newTrial, day: 50, 1),
                // Another environment's counter is another counter.
                row(.product, "annual", .renewal, day: 130, 1, environment: .sandbox),
            ])
        #expect(
            app.additions == [
                row(.product, "trial", .newTrial, day: 50, -1),
                row(.product, "monthly", .revenueGross, day: 100, currency: "EUR", 7_990),
                row(.product, "annual", .renewal, day: 130, -1, environment: .sandbox),
                row(.product, "annual", .renewal, day: 130, 1),
                row(.combined, "USA|annual|", .renewal, day: 130, 1),
            ].sorted())
        #expect(app.additions == app.additions.sorted())
        #expect(
            app.deletions == [
                row(.product, "trial", .newTrial, day: 50, 0), row(.product, "annual", .renewal, day: 130, 0, environment: .sandbox),
            ].sorted())
    }

    /// A row held that no counter can have (a corrupt metric past 255, a day past 32 bits) is
    /// taken back and deleted as itself: it must not pass for the counter its packing would alias
    /// (metric 300 is 44 in eight bits), whose held value stays as the records give it.
    @Test func aCorruptRowIsTakenBackAsItselfNotAsAnotherCounter() throws {
        let aliased = AnalyticsMetric(rawValue: 300 & 0xFF)
        let app = try correction(
            rebuilt: counters([(aliased, 100, "monthly", "USA", "", 2)]),
            kept: [
                row(.product, "monthly", aliased, day: 100, 2), row(.combined, "USA|monthly|", aliased, day: 100, 2),
                row(.product, "monthly", AnalyticsMetric(rawValue: 300), day: 100, 7),
                row(.product, "monthly", .newPaid, day: Int(Int32.max) + 1, 3),
            ])
        let strays = [row(.product, "monthly", AnalyticsMetric(rawValue: 300), day: 100, -7), row(.product, "monthly", .newPaid, day: Int(Int32.max) + 1, -3)]
        #expect(app.additions.sorted() == strays.sorted())
        #expect(Array(app.additions(by: 1).joined()) == app.additions)
        #expect(app.deletions == strays.map { var zero = $0; zero.value = 0; return zero }.sorted())
    }

    /// An app whose subscriptions are all gone has no sums: every counter it held is taken back and
    /// deleted. The other app's figures and the rebuild's are reported as given.
    @Test func anAppWithNoSubscriptionsLeftLosesEveryCounter() {
        let correction = AnalyticsCorrection(
            rebuilt: ["com.example.b": counters([(.newPaid, 100, "monthly", "USA", "", 1)])],
            kept: [
                "com.example.b": [row(.product, "monthly", .newPaid, day: 100, 1), row(.combined, "USA|monthly|", .newPaid, day: 100, 1)],
                "com.example.a": [row(.product, "monthly", .newPaid, day: 100, 2), row(.combined, "USA|monthly|", .newPaid, day: 100, 2)],
                "com.example.c": [],
            ],
            subscriptions: 1, unknownApps: ["com.example.other": 3])
        #expect(correction.apps.map(\.bundleID) == ["com.example.a", "com.example.b", "com.example.c"])
        #expect(correction.apps[0].additions == [row(.product, "monthly", .newPaid, day: 100, -2), row(.combined, "USA|monthly|", .newPaid, day: 100, -2)])
        #expect(correction.apps[0].deletions == [row(.product, "monthly", .newPaid, day: 100, 0), row(.combined, "USA|monthly|", .newPaid, day: 100, 0)])
        #expect(correction.apps[1].additions.isEmpty && correction.apps[1].deletions.isEmpty)
        #expect(correction.apps[2].additions.isEmpty && correction.apps[2].deletions.isEmpty)
        #expect(correction.rebuild == AnalyticsRebuild(subscriptions: 1, rows: 2, unknownApps: ["com.example.other": 3]))
    }
}

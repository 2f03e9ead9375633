import Foundation
import GRDB
import PerennialCore
@testable import PerennialSQLite
import PerennialStorage
import Testing

/// A database written by an earlier version upgrades in place, keeping its rows.
@Suite struct SQLiteUpgradeTests {
    @Test func aVersion3TimelineSurvivesTheAuditRebuild() async throws {
        try await withTemporarySQLiteFile { path in
            let detail = String(decoding: try StorageJSON.encode(AuditDetail(originalTransactionIDs: ["1000"]), what: "detail"), as: UTF8.self)
            do {
                let old = try DatabaseQueue(path: path)
                try SQLiteMigrations.migrator.migrate(old, upTo: "v3-reconciliation")
                try await old.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO evidence (id, app_bundle_id, kind, idempotency_key, raw, received_at, environment) VALUES (7, 'b', 'receipt', 'k', x'00', 1, 'Sandbox');
                            INSERT INTO audit (id, app_user_id, at, kind, detail, evidence_id) VALUES (41, 'alice', 2, 'evidenceApplied', ?, 7);
                            """, arguments: [detail])
                }
            }
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            let timeline = try await storage.timeline(of: "alice", appBundleID: "b")
            #expect(timeline.map(\.id) == [41])
            #expect(timeline.first?.entry.appBundleID == "b")
            #expect(try await storage.timeline(of: "alice", appBundleID: "a").isEmpty)
            #expect(timeline.first?.evidenceID == 7)
            #expect(timeline.first?.entry.detail.originalTransactionIDs == ["1000"])
        }
    }

    /// A journal of analytics changes not folded yet (the table before the changes moved into the
    /// evidence rows) is added to the counters, once, and the evidence before it counts as folded.
    @Test func anAnalyticsJournalIsFoldedWhenChangesMoveIntoTheEvidence() async throws {
        try await withTemporarySQLiteFile { path in
            var change = AnalyticsCounters()
            change.add(3, to: AnalyticsCounters.Key(environment: .production, metric: .newPaid, day: 20_500, productID: "pro", storefront: "USA", currency: ""))
            let bytes = SQLiteAnalyticsJournal.encode(change)
            do {
                let old = try DatabaseQueue(path: path)
                try SQLiteMigrations.migrator.migrate(old, upTo: "analytics-v2-journal")
                try await old.write { db in
                    try db.execute(
                        sql: "INSERT INTO evidence (id, app_bundle_id, kind, idempotency_key, raw, received_at, environment) VALUES (9, 'b', 'receipt', 'k', x'00', 1, 'Production')")
                    for id in 1...2 {
                        try db.execute(
                            sql: "INSERT INTO analytics_changes (id, app_bundle_id, changes) VALUES (?, 'b', ?)",
                            arguments: [id, bytes])
                    }
                }
            }
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            for dimension in AnalyticsDimension.allCases {
                let rows = try await storage.analyticsCounters(
                    AnalyticsCounterRequest(appBundleID: "b", environment: .production, dimension: dimension, fromDay: 20_000, throughDay: 21_000))
                #expect(rows.filter { $0.value != 0 }.map { "\($0.metric) \($0.day) \($0.value)" } == ["\(AnalyticsMetric.newPaid) 20500 6"])
            }
            let folded = try await storage.writer.read { db in try Int64.fetchOne(db, sql: "SELECT through_evidence_id FROM analytics_folded") }
            #expect(folded == 9)
        }
    }

    /// App users become each app's own: a token is kept in every app its user has a purchase, a
    /// view or a grant in, and nowhere else; in a database of one app, every token stays with it.
    @Test(arguments: [true, false])
    func appUsersAreScopedToTheAppsTheyAreKnownIn(singleApp: Bool) async throws {
        let alice = UUID(), bob = UUID(), carol = UUID()
        try await withTemporarySQLiteFile { path in
            do {
                let old = try DatabaseQueue(path: path)
                try SQLiteMigrations.migrator.migrate(old, upTo: "analytics-v3-changes-in-evidence")
                try await old.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO evidence (id, app_bundle_id, kind, idempotency_key, raw, received_at, environment) VALUES (1, 'a', 'receipt', 'k1', x'00', 1, 'Sandbox');
                            INSERT INTO app_users (app_user_id, app_account_token) VALUES ('alice', ?), ('bob', ?), ('carol', ?);
                            INSERT INTO bindings (original_transaction_id, app_user_id, app_bundle_id, bound_at) VALUES ('1000', 'alice', 'a', 1);
                            INSERT INTO subscriber_views (app_user_id, app_bundle_id, view) VALUES ('alice', 'b', '{}');
                            """, arguments: [alice.uuidString, bob.uuidString, carol.uuidString])
                    if !singleApp {
                        try db.execute(
                            sql: "INSERT INTO evidence (id, app_bundle_id, kind, idempotency_key, raw, received_at, environment) VALUES (2, 'c', 'receipt', 'k2', x'00', 1, 'Sandbox')")
                    }
                }
            }
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            #expect(try await storage.appUser(forAppAccountToken: alice, appBundleID: "a") == "alice")
            #expect(try await storage.appUser(forAppAccountToken: alice, appBundleID: "b") == "alice")
            #expect(try await storage.appUser(forAppAccountToken: alice, appBundleID: "c") == nil)
            // Bob is known in no app: he stays with the only app of a single-app database, and
            // nowhere (a new token on his next request) when the database cannot tell which.
            #expect(try await storage.appUser(forAppAccountToken: bob, appBundleID: "a") == (singleApp ? "bob" : nil))
            let carolsToken = try await storage.appAccountToken(for: "carol", appBundleID: "a")
            #expect((carolsToken == carol) == singleApp)
            #expect(try await storage.appAccountToken(for: "alice", appBundleID: "a") == alice)
        }
    }
}

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
            let timeline = try await storage.timeline(of: "alice")
            #expect(timeline.map(\.id) == [41])
            #expect(timeline.first?.evidenceID == 7)
            #expect(timeline.first?.entry.detail.originalTransactionIDs == ["1000"])
        }
    }
}

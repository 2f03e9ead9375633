import Foundation
import GRDB
import PerennialCore
@testable import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// `SQLiteStorage.backup(to:)` while applies go on: every copy is a whole database as of one
/// instant, and a backup never replaces a file.
@Suite struct SQLiteBackupTests {
    /// A purchase by its own user, its idempotency key its transaction id, with raw bytes large
    /// enough (8 KB) that the database spans many backup steps.
    static func purchase(_ number: Int) -> IncomingEvidence {
        let id = "\(1_000_000 + number)"
        return IncomingEvidence(
            appBundleID: ContractFixture.bundleID, kind: .signedTransaction, idempotencyKey: id, raw: Data(repeating: UInt8(number % 251), count: 8_192),
            receivedAt: ContractFixture.day(1), records: EvidenceRecords(transactions: [ContractFixture.transaction(id, original: id, purchased: 0)]),
            presentedBy: AppUserID(rawValue: "user-\(id)"), environment: .sandbox)
    }

    /// The progress reports of one backup, appended from GRDB's queue.
    final class ProgressLog: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [SQLiteStorage.BackupProgress] = []

        func append(_ report: SQLiteStorage.BackupProgress) { lock.withLock { reports.append(report) } }
        var steps: [SQLiteStorage.BackupProgress] { lock.withLock { reports } }
    }

    @Test func backupsTakenDuringAppliesEachHoldWholeAppliesAsOfOneInstant() async throws {
        try await withTemporaryDirectory { directory in
            let source = try SQLiteStorage(path: directory.appendingPathComponent("live.sqlite").path)
            try await source.migrate()
            let applies = Task {
                var number = 0
                while !Task.isCancelled {
                    _ = try await source.apply(Self.purchase(number), with: ContractFixture.applier(), now: ContractFixture.day(2))
                    number += 1
                }
            }
            var copies: [(path: String, progress: ProgressLog)] = []
            var seen = 0
            for index in 0..<5 {
                // Each backup starts after more applies than the last one saw.
                while try await source.evidenceCount() <= seen + 10 { try await Task.sleep(for: .milliseconds(10)) }
                let path = directory.appendingPathComponent("copy-\(index).sqlite").path
                let log = ProgressLog()
                try await source.backup(to: path, pagesPerStep: 8) { step in log.append(step) }
                copies.append((path, log))
                seen = try Self.evidenceCount(at: path)
            }
            applies.cancel()
            try? await applies.value

            let total = try await source.evidenceCount()
            let outboxPerPurchase = try await source.read("count outbox") { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 } / total
            #expect(outboxPerPurchase >= 1)
            var counts: [Int] = []
            for copy in copies {
                let steps = copy.progress.steps
                #expect(steps.count > 2, "a backup of 8 pages a step reports more than once")
                #expect(steps.last.map { $0.copiedPages == $0.totalPages } == true)
                let count = try Self.checkWholeApplies(at: copy.path, outboxPerPurchase: outboxPerPurchase)
                counts.append(count)
                // Restoring is starting on the copy: it is a current database whose last subscriber reads back.
                let restored = try SQLiteStorage(path: copy.path)
                #expect(try await restored.schemaStatus().pending.isEmpty)
                let last = AppUserID(rawValue: "user-\(1_000_000 + count - 1)")
                #expect(try await restored.subscriber(last, appBundleID: ContractFixture.bundleID).view?.subscriptions.count == 1)
            }
            #expect(counts == counts.sorted() && counts.first! < counts.last!, "\(counts)")
            #expect(counts.last! <= total)
        }
    }

    @Test func anExistingFileIsNeverReplaced() async throws {
        try await withTemporaryDirectory { directory in
            let source = try SQLiteStorage(path: directory.appendingPathComponent("live.sqlite").path)
            try await source.migrate()
            _ = try await source.apply(Self.purchase(0), with: ContractFixture.applier(), now: ContractFixture.day(2))
            let existing = directory.appendingPathComponent("previous.sqlite")
            try Data("the last good backup".utf8).write(to: existing)
            await #expect(throws: SQLiteBackupError.destinationExists(path: existing.path)) { try await source.backup(to: existing.path) }
            #expect(try String(contentsOf: existing, encoding: .utf8) == "the last good backup")
            let missingDirectory = directory.appendingPathComponent("nowhere/copy.sqlite").path
            await #expect { try await source.backup(to: missingDirectory) } throws: { error in
                guard case .failed(let path, _) = error as? SQLiteBackupError else { return false }
                return path == missingDirectory
            }
            // Neither attempt left a file behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix("live.sqlite") } == ["previous.sqlite"])
        }
    }

    static func evidenceCount(at path: String) throws -> Int {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM evidence") ?? 0 }
    }

    /// Checks the copy's integrity and that every apply in it is whole: the applies ran one after
    /// the other, so the copy holds the first n of them, each with its transaction, binding, view,
    /// audit entry and events. Returns n.
    static func checkWholeApplies(at path: String, outboxPerPurchase: Int) throws -> Int {
        try DatabaseQueue(path: path).read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM evidence") ?? 0
            #expect(count > 0)
            #expect(try Int.fetchOne(db, sql: "SELECT MAX(id) FROM evidence") == count, "the copy holds the first applies, without a gap")
            let row = try #require(try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM transactions), (SELECT COUNT(*) FROM bindings), (SELECT COUNT(*) FROM subscriber_views),
                           (SELECT COUNT(DISTINCT evidence_id) FROM audit), (SELECT COUNT(*) FROM outbox), (SELECT COUNT(*) FROM reconciliation_checks)
                    """))
            let counts: [Int] = (0..<6).map { row[$0] }
            #expect(counts == [count, count, count, count, count * outboxPerPurchase, count])
            let halfApplied = try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM evidence e WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.transaction_id = e.idempotency_key)
                        OR NOT EXISTS (SELECT 1 FROM bindings b WHERE b.original_transaction_id = e.idempotency_key AND b.app_user_id = 'user-' || e.idempotency_key)
                        OR NOT EXISTS (SELECT 1 FROM outbox o WHERE o.app_user_id = 'user-' || e.idempotency_key)
                        OR NOT EXISTS (SELECT 1 FROM audit a WHERE a.evidence_id = e.id)
                    """)
            #expect(halfApplied == 0)
            return count
        }
    }
}

import Foundation
import GRDB
import PerennialCore
@testable import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// A writer that finds the file locked by another process waits in short pauses, up to
/// ``SQLiteBusyWait/limit`` in all, and then succeeds once the lock is free.
@Suite struct SQLiteBusyWaitTests {
    @Test func pausesAreShortFirstAndAddUpToTheLimit() throws {
        #expect(SQLiteBusyWait.pause(afterTries: 0) == SQLiteBusyWait.shortPause)
        #expect(SQLiteBusyWait.pause(afterTries: SQLiteBusyWait.shortTries) == SQLiteBusyWait.longPause)
        var waited = Duration.zero
        var tries = 0
        while let pause = SQLiteBusyWait.pause(afterTries: tries) {
            waited += pause
            tries += 1
        }
        #expect(waited >= SQLiteBusyWait.limit)
        #expect(waited < SQLiteBusyWait.limit + SQLiteBusyWait.longPause)
    }

    /// Another connection (as a second `perennial serve` would) holds the write lock while the
    /// apply starts; the apply must wait for it rather than fail with `SQLITE_BUSY`.
    @Test func anApplyWaitsForAnotherConnectionsWriteLock() async throws {
        try await withTemporarySQLiteFile { path in
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            let other = try DatabaseQueue(path: path)
            let locked = AsyncStream<Void>.makeStream()
            let holder = Task.detached {
                try other.inDatabase { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    locked.continuation.yield()
                    Thread.sleep(forTimeInterval: 0.2)
                    try db.execute(sql: "COMMIT")
                }
            }
            for await _ in locked.stream { break }
            let alice = AppUserID(rawValue: "alice")
            let evidence = ContractFixture.evidence(
                "alice-1", by: alice, EvidenceRecords(transactions: [ContractFixture.transaction("1", original: "1", purchased: 0)]))
            let result = try await storage.apply(evidence, with: ContractFixture.applier(), now: ContractFixture.day(1))
            try await holder.value
            guard case .applied = result else { Issue.record("expected the apply to go through, got \(result)"); return }
            #expect(try await storage.records(ownedBy: alice, appBundleID: ContractFixture.bundleID).evidence.transactions.count == 1)
        }
    }
}

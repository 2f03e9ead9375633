import Foundation
import GRDB
@testable import PerennialSQLite
import PerennialStorage
import Testing

/// A file an older Perennial migrated: its status names what is missing, in the order it will
/// run, and reading it changes nothing.
@Suite struct SQLiteSchemaStatusTests {
    @Test func aFileAnOlderPerennialMigratedListsItsPendingMigrations() async throws {
        try await withTemporarySQLiteFile { path in
            let known = SQLiteMigrations.migrator.migrations
            let older = "consumption-requests"
            let cut = try #require(known.firstIndex(of: older))
            do {
                let old = try DatabaseQueue(path: path)
                try SQLiteMigrations.migrator.migrate(old, upTo: older)
            }
            let storage = try SQLiteStorage(path: path)
            let status = try await storage.schemaStatus()
            #expect(status.applied == Array(known[...cut]))
            #expect(status.pending == Array(known[(cut + 1)...]) && !status.pending.isEmpty)
            #expect(try await storage.schemaStatus() == status)
            #expect(throws: StorageError.migrationsPending(status.pending)) { try status.requireCurrent() }

            try await storage.migrate()
            #expect(try await storage.schemaStatus().applied == known)
        }
    }

    /// Asking a file that was never migrated creates no table in it.
    @Test func readingTheStatusOfANewFileWritesNothing() async throws {
        try await withTemporarySQLiteFile { path in
            let storage = try SQLiteStorage(path: path)
            #expect(try await storage.schemaStatus().pending == SQLiteMigrations.migrator.migrations)
            #expect(try await storage.read("list tables") { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") } == [])
        }
    }
}

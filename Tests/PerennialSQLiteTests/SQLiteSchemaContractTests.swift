import GRDB
@testable import PerennialSQLite
import PerennialStorageContract
import Testing

/// The schema contract against SQLite in memory; a newer Perennial's migration is a row of GRDB's
/// `grdb_migrations` this build did not register.
@Suite struct SQLiteSchemaContractTests {
    @Test(arguments: SchemaContract.Check.allCases)
    func contract(_ check: SchemaContract.Check) async throws {
        try await SchemaContract(makeStorage: { try SQLiteStorage.inMemory() }) { storage in
            let sqlite = try #require(storage as? SQLiteStorage)
            try await sqlite.writer.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('from-a-newer-perennial')") }
            return "from-a-newer-perennial"
        }.run(check)
    }
}

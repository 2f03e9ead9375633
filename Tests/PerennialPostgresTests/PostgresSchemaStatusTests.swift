import PerennialPostgres
import PerennialStorage
import PostgresNIO
import Testing

/// Asking a database that was never migrated for its status creates nothing in it, not even
/// `perennial_migrations`: `perennial migrate --check` changes nothing.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresSchemaStatusTests {
    @Test func readingTheStatusOfAFreshDatabaseWritesNothing() async throws {
        try await PostgresTestDatabase.with { database in
            let storage = try await database.makeStorage()
            let status = try await storage.schemaStatus()
            #expect(status.applied.isEmpty && status.pending == status.known)
            var tables: [Int64] = []
            for try await count in try await storage.client.query("SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()").decode(Int64.self) {
                tables.append(count)
            }
            #expect(tables == [0])
        }
    }
}

import PerennialPostgres
import PerennialStorageContract
import PostgresNIO
import Testing

/// The schema contract against PostgreSQL, each storage in a fresh schema; two migrations at
/// once run on two connections of the pool, so the advisory lock is what keeps them apart. A
/// newer Perennial's migration is a version of `perennial_migrations` past this build's.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresSchemaContractTests {
    @Test(arguments: SchemaContract.Check.allCases)
    func contract(_ check: SchemaContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await SchemaContract(makeStorage: { try await database.makeStorage() }) { storage in
                let postgres = try #require(storage as? PostgresStorage)
                try await postgres.client.query("INSERT INTO perennial_migrations (version, name) VALUES (999, 'from-a-newer-perennial')")
                return "999-from-a-newer-perennial"
            }.run(check)
        }
    }
}

import PerennialStorageContract
import Testing

/// The import job contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresImportJobContractTests {
    @Test(arguments: ImportJobContract.Check.allCases)
    func contract(_ check: ImportJobContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await ImportJobContract { try await database.makeStorage() }.run(check)
        }
    }
}

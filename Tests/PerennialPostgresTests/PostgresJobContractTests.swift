import PerennialStorageContract
import Testing

/// The job contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresJobContractTests {
    @Test(arguments: JobContract.Check.allCases)
    func contract(_ check: JobContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await JobContract { try await database.makeStorage() }.run(check)
        }
    }
}

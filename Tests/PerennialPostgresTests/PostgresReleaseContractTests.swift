import PerennialStorageContract
import Testing

/// The release contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresReleaseContractTests {
    @Test(arguments: ReleaseContract.Check.allCases)
    func contract(_ check: ReleaseContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await ReleaseContract { try await database.makeStorage() }.run(check)
        }
    }
}

import PerennialStorageContract
import Testing

/// The grant contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresGrantContractTests {
    @Test(arguments: GrantContract.Check.allCases)
    func contract(_ check: GrantContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await GrantContract { try await database.makeStorage() }.run(check)
        }
    }
}

import PerennialStorageContract
import Testing

/// The retention rule contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresRetentionRuleContractTests {
    @Test(arguments: RetentionRuleContract.Check.allCases)
    func contract(_ check: RetentionRuleContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await RetentionRuleContract { try await database.makeStorage() }.run(check)
        }
    }
}

import PerennialStorageContract
import Testing

/// The app transaction contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresAppTransactionContractTests {
    @Test(arguments: AppTransactionContract.Check.allCases)
    func contract(_ check: AppTransactionContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await AppTransactionContract { try await database.makeStorage() }.run(check)
        }
    }
}

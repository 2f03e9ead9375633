import PerennialStorageContract
import Testing

/// The reconciliation schedule contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresReconciliationContractTests {
    @Test(arguments: ReconciliationContract.Check.allCases)
    func contract(_ check: ReconciliationContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await ReconciliationContract { try await database.makeStorage() }.run(check)
        }
    }
}

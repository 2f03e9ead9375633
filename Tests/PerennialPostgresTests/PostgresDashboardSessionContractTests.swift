import PerennialStorageContract
import Testing

/// The dashboard session contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresDashboardSessionContractTests {
    @Test(arguments: DashboardSessionContract.Check.allCases)
    func contract(_ check: DashboardSessionContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await DashboardSessionContract { try await database.makeStorage() }.run(check)
        }
    }
}

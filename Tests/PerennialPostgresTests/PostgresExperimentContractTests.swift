import PerennialStorageContract
import Testing

/// The experiment contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresExperimentContractTests {
    @Test(arguments: ExperimentContract.Check.allCases)
    func contract(_ check: ExperimentContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await ExperimentContract { try await database.makeStorage() }.run(check)
        }
    }
}

import PerennialStorageContract
import Testing

/// The consumption contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresConsumptionContractTests {
    @Test(arguments: ConsumptionContract.Check.allCases)
    func contract(_ check: ConsumptionContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await ConsumptionContract { try await database.makeStorage() }.run(check)
        }
    }
}

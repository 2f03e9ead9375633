import PerennialStorageContract
import Testing

/// The offering contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresOfferingContractTests {
    @Test(arguments: OfferingContract.Check.allCases)
    func contract(_ check: OfferingContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await OfferingContract { try await database.makeStorage() }.run(check)
        }
    }
}

import PerennialStorageContract
import Testing

/// The storage contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresContractTests {
    @Test(arguments: StorageContract.Check.allCases)
    func contract(_ check: StorageContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await StorageContract { try await database.makeStorage() }.run(check)
        }
    }

    @Test(arguments: AnalyticsContract.Check.allCases)
    func analytics(_ check: AnalyticsContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await AnalyticsContract { try await database.makeStorage() }.run(check)
        }
    }
}

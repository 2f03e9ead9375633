import PerennialStorageContract
import Testing

/// The webhook outbox contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresOutboxContractTests {
    @Test(arguments: OutboxContract.Check.allCases)
    func contract(_ check: OutboxContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await OutboxContract { try await database.makeStorage() }.run(check)
        }
    }
}

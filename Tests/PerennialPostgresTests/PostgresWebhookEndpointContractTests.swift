import PerennialStorageContract
import Testing

/// The webhook endpoint contract against PostgreSQL, each storage in a fresh schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresWebhookEndpointContractTests {
    @Test(arguments: WebhookEndpointContract.Check.allCases)
    func contract(_ check: WebhookEndpointContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await WebhookEndpointContract { try await database.makeStorage() }.run(check)
        }
    }
}

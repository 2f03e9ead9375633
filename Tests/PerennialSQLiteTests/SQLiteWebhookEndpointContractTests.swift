import PerennialSQLite
import PerennialStorageContract
import Testing

/// The webhook endpoint contract against SQLite in memory.
@Suite struct SQLiteWebhookEndpointContractTests {
    @Test(arguments: WebhookEndpointContract.Check.allCases)
    func contract(_ check: WebhookEndpointContract.Check) async throws {
        try await WebhookEndpointContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

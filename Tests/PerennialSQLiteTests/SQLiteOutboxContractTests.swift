import PerennialSQLite
import PerennialStorageContract
import Testing

/// The webhook outbox contract against SQLite.
@Suite struct SQLiteOutboxContractTests {
    @Test(arguments: OutboxContract.Check.allCases)
    func inMemory(_ check: OutboxContract.Check) async throws {
        try await OutboxContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

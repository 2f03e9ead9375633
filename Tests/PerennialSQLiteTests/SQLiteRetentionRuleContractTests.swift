import PerennialSQLite
import PerennialStorageContract
import Testing

/// The retention rule contract against SQLite in memory.
@Suite struct SQLiteRetentionRuleContractTests {
    @Test(arguments: RetentionRuleContract.Check.allCases)
    func contract(_ check: RetentionRuleContract.Check) async throws {
        try await RetentionRuleContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

import PerennialSQLite
import PerennialStorageContract
import Testing

/// The grant contract against SQLite in memory.
@Suite struct SQLiteGrantContractTests {
    @Test(arguments: GrantContract.Check.allCases)
    func contract(_ check: GrantContract.Check) async throws {
        try await GrantContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

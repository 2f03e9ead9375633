import PerennialSQLite
import PerennialStorageContract
import Testing

/// The release contract against SQLite in memory.
@Suite struct SQLiteReleaseContractTests {
    @Test(arguments: ReleaseContract.Check.allCases)
    func contract(_ check: ReleaseContract.Check) async throws {
        try await ReleaseContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

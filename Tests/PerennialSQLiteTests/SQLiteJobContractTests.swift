import PerennialSQLite
import PerennialStorageContract
import Testing

/// The job contract against SQLite.
@Suite struct SQLiteJobContractTests {
    @Test(arguments: JobContract.Check.allCases)
    func inMemory(_ check: JobContract.Check) async throws {
        try await JobContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

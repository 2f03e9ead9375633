import PerennialSQLite
import PerennialStorageContract
import Testing

/// The experiment contract against SQLite in memory.
@Suite struct SQLiteExperimentContractTests {
    @Test(arguments: ExperimentContract.Check.allCases)
    func contract(_ check: ExperimentContract.Check) async throws {
        try await ExperimentContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

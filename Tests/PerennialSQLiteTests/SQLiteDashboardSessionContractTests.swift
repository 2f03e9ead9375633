import PerennialSQLite
import PerennialStorageContract
import Testing

/// The dashboard session contract against SQLite.
@Suite struct SQLiteDashboardSessionContractTests {
    @Test(arguments: DashboardSessionContract.Check.allCases)
    func inMemory(_ check: DashboardSessionContract.Check) async throws {
        try await DashboardSessionContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

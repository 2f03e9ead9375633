import PerennialSQLite
import PerennialStorageContract
import Testing

/// The reconciliation schedule contract against SQLite.
@Suite struct SQLiteReconciliationContractTests {
    @Test(arguments: ReconciliationContract.Check.allCases)
    func inMemory(_ check: ReconciliationContract.Check) async throws {
        try await ReconciliationContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

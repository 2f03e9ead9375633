import PerennialSQLite
import PerennialStorageContract
import Testing

/// The app transaction contract against SQLite.
@Suite struct SQLiteAppTransactionContractTests {
    @Test(arguments: AppTransactionContract.Check.allCases)
    func inMemory(_ check: AppTransactionContract.Check) async throws {
        try await AppTransactionContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

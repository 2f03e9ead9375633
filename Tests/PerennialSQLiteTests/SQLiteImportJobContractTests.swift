import PerennialSQLite
import PerennialStorageContract
import Testing

/// The import job contract against SQLite.
@Suite struct SQLiteImportJobContractTests {
    @Test(arguments: ImportJobContract.Check.allCases)
    func inMemory(_ check: ImportJobContract.Check) async throws {
        try await ImportJobContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

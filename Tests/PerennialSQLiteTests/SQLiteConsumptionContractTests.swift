import PerennialSQLite
import PerennialStorageContract
import Testing

/// The consumption contract against SQLite.
@Suite struct SQLiteConsumptionContractTests {
    @Test(arguments: ConsumptionContract.Check.allCases)
    func inMemory(_ check: ConsumptionContract.Check) async throws {
        try await ConsumptionContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

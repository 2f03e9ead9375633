import PerennialSQLite
import PerennialStorageContract
import Testing

/// The offering contract against SQLite in memory.
@Suite struct SQLiteOfferingContractTests {
    @Test(arguments: OfferingContract.Check.allCases)
    func contract(_ check: OfferingContract.Check) async throws {
        try await OfferingContract { try SQLiteStorage.inMemory() }.run(check)
    }
}

import Foundation
import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// The storage contract against SQLite, both in memory and on a WAL file (the production shape).
@Suite struct SQLiteContractTests {
    @Test(arguments: StorageContract.Check.allCases)
    func inMemory(_ check: StorageContract.Check) async throws {
        try await StorageContract { try SQLiteStorage.inMemory() }.run(check)
    }

    @Test(arguments: StorageContract.Check.allCases)
    func onFile(_ check: StorageContract.Check) async throws {
        try await withTemporaryDirectory { directory in
            try await StorageContract {
                try SQLiteStorage(path: directory.appendingPathComponent("\(UUID().uuidString).sqlite").path)
            }.run(check)
        }
    }

    @Test(arguments: AnalyticsContract.Check.allCases)
    func analytics(_ check: AnalyticsContract.Check) async throws {
        try await AnalyticsContract { try SQLiteStorage.inMemory() }.run(check)
    }

    @Test func fileDatabaseUsesWriteAheadLog() async throws {
        try await withTemporarySQLiteFile { path in
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }
}

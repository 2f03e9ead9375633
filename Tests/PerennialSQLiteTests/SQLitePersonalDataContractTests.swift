import Foundation
import GRDB
@testable import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// The personal-data contract against SQLite in memory, checked against every value of every table.
@Suite struct SQLitePersonalDataContractTests {
    @Test(arguments: PersonalDataContract.Check.allCases)
    func contract(_ check: PersonalDataContract.Check) async throws {
        try await PersonalDataContract(makeStorage: { try SQLiteStorage.inMemory() }, storedText: Self.storedText).run(check)
    }

    /// Every row of every table, each value as text, tables by name and rows sorted (some tables have no rowid).
    @Sendable static func storedText(_ storage: any SubscriberStorage) async throws -> String {
        let storage = try #require(storage as? SQLiteStorage)
        return try await storage.read("dump") { db in
            var text = ""
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { row in
                    row.databaseValues.map { value in
                        if case .blob(let data) = value.storage { String(decoding: data, as: UTF8.self) } else { value.description }
                    }.joined(separator: "\t")
                }
                text += rows.sorted().joined(separator: "\n") + "\n"
            }
            return text
        }
    }
}

import Foundation
import PerennialPostgres
import PerennialStorage
import PerennialStorageContract
import PostgresNIO
import Testing

/// The personal-data contract against PostgreSQL, each storage in a fresh schema, checked against
/// every value of every table of the schema.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresPersonalDataContractTests {
    @Test(arguments: PersonalDataContract.Check.allCases)
    func contract(_ check: PersonalDataContract.Check) async throws {
        try await PostgresTestDatabase.with { database in
            try await PersonalDataContract(makeStorage: { try await database.makeStorage() }, storedText: Self.storedText).run(check)
        }
    }

    /// Every row of every table of the storage's schema as PostgreSQL writes a row as text (BYTEA
    /// as its UTF-8 text, so raw evidence is searched too), in table and row order.
    @Sendable static func storedText(_ storage: any SubscriberStorage) async throws -> String {
        let storage = try #require(storage as? PostgresStorage)
        var tables: [String] = []
        for try await table in try await storage.client.query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1"
        ).decode(String.self) { tables.append(table) }
        var text = ""
        for table in tables {
            let rows = try await storage.client.query(PostgresQuery(unsafeSQL: "SELECT t::text FROM \"\(table)\" t ORDER BY 1"))
            for try await row in rows.decode(String.self) { text += row + " " + Self.decodedBytea(in: row) + "\n" }
        }
        return text
    }

    /// The BYTEA values of a row's text (`\\x` and hex digits) as UTF-8 text.
    static func decodedBytea(in row: String) -> String {
        var decoded = ""
        for part in row.components(separatedBy: "\\x").dropFirst() {
            let hex = Array(part.prefix { $0.isHexDigit }.utf8)
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: hex.count - 1, by: 2) {
                if let byte = UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16) { bytes.append(byte) }
            }
            decoded += String(decoding: bytes, as: UTF8.self) + " "
        }
        return decoded
    }
}

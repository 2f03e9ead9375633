import Foundation
import PerennialCore
import PerennialStorage
import PerennialStorageContract
import Testing

/// The decoded-record cache returns exactly what decoding the stored text returns, fresh or reused,
/// across generations, and never caches a corrupt row.
@Suite struct DecodedRecordCacheTests {
    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try StorageJSON.encode(value, what: "test record"), as: UTF8.self)
    }

    @Test func reusedRecordsEqualFreshlyDecodedOnesAcrossGenerations() throws {
        let cache = DecodedRecordCache(capacity: 2)
        let transactions = (0..<5).map { ContractFixture.transaction("\(1000 + $0)", original: "1000", purchased: Double($0 * 30)) }
        let texts = try transactions.map(Self.json)
        for _ in 0..<3 {
            for (text, transaction) in zip(texts, transactions) {
                #expect(try cache.transaction(fromJSON: text, key: "1000") == transaction)
            }
        }
        let info = ContractFixture.renewalInfo(original: "1000", willRenew: true, signed: 5)
        #expect(try cache.renewalInfo(fromJSON: try Self.json(info), key: "1000") == info)
        #expect(try cache.renewalInfo(fromJSON: try Self.json(info), key: "1000") == info)
    }

    /// Encoding through the cache writes the same text as `StorageJSON` (stored rows keep their
    /// format), and reading that text back gives the value written, views included, whose
    /// generations are an eighth of the records' (here one).
    @Test func rowsEncodedThroughTheCacheReadBackAsWritten() throws {
        let cache = DecodedRecordCache(capacity: 8)
        let transaction = ContractFixture.transaction("1000", original: "1000", purchased: 0)
        let info = ContractFixture.renewalInfo(original: "1000", willRenew: true, signed: 0)
        let engine = ContractFixture.applier().engine
        let views = (0..<3).map { day in
            engine.view(of: RecordSet(EvidenceRecords(transactions: [transaction], renewalInfos: [info])), at: ContractFixture.day(Double(day) * 20))
        }
        #expect(try cache.json(for: transaction) == Self.json(transaction))
        #expect(try cache.json(for: info) == Self.json(info))
        #expect(try cache.transaction(fromJSON: try Self.json(transaction), key: "1000") == transaction)
        #expect(try cache.renewalInfo(fromJSON: try Self.json(info), key: "1000") == info)
        let texts = try views.map { try cache.json(for: $0, of: "alice") }
        #expect(texts == (try views.map(Self.json)))
        for (text, view) in zip(texts, views) {
            #expect(try cache.view(fromJSON: text, key: "alice") == view)
        }
    }

    @Test func aCorruptRowIsATypedErrorEveryTime() throws {
        let cache = DecodedRecordCache(capacity: 8)
        for _ in 0..<2 {
            #expect {
                try cache.transaction(fromJSON: #"{"transactionID": 1"#, key: "42")
            } throws: { error in
                guard case StorageError.corruptRow(let table, let key, _) = error else { return false }
                return table == "transactions" && key == "42"
            }
        }
    }
}

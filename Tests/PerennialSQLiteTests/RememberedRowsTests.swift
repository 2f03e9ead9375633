import Foundation
import GRDB
import PerennialCore
@testable import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// Rows are encoded through `DecodedRecordCache`, which remembers each value under the text it
/// wrote so the next apply reads it back without decoding. That is only sound if every stored row
/// decodes afresh to the very value remembered for it: here a lifecycle is applied, then every
/// record and view row is decoded with a fresh `JSONDecoder` and compared with the cache's answer,
/// and every JSON row is the bytes Foundation's encoder writes for what it decodes to (rows are
/// written with Perennial's own encoder, which must not differ).
@Suite struct RememberedRowsTests {
    @Test func everyWrittenRowDecodesToTheValueRememberedForIt() async throws {
        let storage = try SQLiteStorage.inMemory()
        try await storage.migrate()
        let applier = ContractFixture.applier()
        let alice = AppUserID(rawValue: "alice")
        let steps: [(String, EvidenceRecords)] = [
            ("buy", EvidenceRecords(
                transactions: [ContractFixture.transaction("1000", original: "1000", purchased: 0, token: UUID())],
                renewalInfos: [ContractFixture.renewalInfo(original: "1000", willRenew: true, signed: 0)])),
            ("renew", EvidenceRecords(transactions: [ContractFixture.transaction("1001", original: "1000", purchased: 30)])),
            ("cancel", EvidenceRecords(renewalInfos: [ContractFixture.renewalInfo(original: "1000", willRenew: false, signed: 31)])),
        ]
        for (key, records) in steps {
            _ = try await storage.apply(ContractFixture.evidence(key, by: alice, records), with: applier, now: ContractFixture.day(31))
        }
        let rows = try await storage.writer.read { db in
            (
                transactions: try String.fetchAll(db, sql: "SELECT record FROM transactions"),
                renewalInfos: try String.fetchAll(db, sql: "SELECT record FROM renewal_infos"),
                views: try String.fetchAll(db, sql: "SELECT view FROM subscriber_views"),
                audit: try String.fetchAll(db, sql: "SELECT detail FROM audit")
            )
        }
        #expect(rows.transactions.count == 2 && rows.renewalInfos.count == 1 && rows.views.count == 1 && rows.audit.count >= 3)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        func foundationBytes<T: Codable>(_ type: T.Type, _ json: String) throws -> String {
            String(decoding: try foundation.encode(try JSONDecoder().decode(type, from: Data(json.utf8))), as: UTF8.self)
        }
        for json in rows.transactions { #expect(try foundationBytes(Transaction.self, json) == json) }
        for json in rows.renewalInfos { #expect(try foundationBytes(RenewalInfo.self, json) == json) }
        for json in rows.views { #expect(try foundationBytes(SubscriberView.self, json) == json) }
        for json in rows.audit { #expect(try foundationBytes(AuditDetail.self, json) == json) }
        let cache = DecodedRecordCache.shared
        for json in rows.transactions {
            #expect(try cache.transaction(fromJSON: json, key: "t") == JSONDecoder().decode(Transaction.self, from: Data(json.utf8)))
        }
        for json in rows.renewalInfos {
            #expect(try cache.renewalInfo(fromJSON: json, key: "r") == JSONDecoder().decode(RenewalInfo.self, from: Data(json.utf8)))
        }
        for json in rows.views {
            let fresh = try JSONDecoder().decode(SubscriberView.self, from: Data(json.utf8))
            #expect(try cache.view(fromJSON: json, key: "v") == fresh)
            #expect(!fresh.subscriptions.isEmpty && fresh.subscriptions.allSatisfy(\.history.isEmpty), "views are stored without histories")
        }
    }
}

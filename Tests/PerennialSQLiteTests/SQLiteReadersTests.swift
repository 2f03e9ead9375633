import Foundation
import PerennialCore
import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// Subscriber reads on a file run on `SQLiteReaders`' own connections, outside GRDB's pool. They
/// must see every commit at once, including one made through another connection to the file (a
/// second `perennial serve`), and many reads at once must each get their own user's records.
@Suite struct SQLiteReadersTests {
    @Test func aReadSeesTheLatestCommitOfAnotherStorageOnTheFile() async throws {
        try await withTemporarySQLiteFile { path in
            let reader = try SQLiteStorage(path: path)
            let writer = try SQLiteStorage(path: path)
            try await writer.migrate()
            let alice = AppUserID(rawValue: "alice")
            #expect(try await reader.records(ownedBy: alice, appBundleID: ContractFixture.bundleID).evidence.transactions.isEmpty)

            for (period, id) in ["1000", "1001", "1002"].enumerated() {
                var records = EvidenceRecords(
                    transactions: [ContractFixture.transaction(id, original: "1000", purchased: Double(period * 30))])
                if period == 1 { records.renewalInfos = [ContractFixture.renewalInfo(original: "1000", willRenew: false, signed: 31)] }
                _ = try await writer.apply(
                    ContractFixture.evidence("alice-\(period)", by: alice, records), with: ContractFixture.applier(),
                    now: ContractFixture.day(Double(period * 30) + 1))

                let read = try await reader.records(ownedBy: alice, appBundleID: ContractFixture.bundleID).evidence
                #expect(Set(read.transactions.map(\.transactionID)) == Set(["1000", "1001", "1002"].prefix(period + 1)))
                #expect(read.renewalInfos.map(\.willAutoRenew) == (period >= 1 ? [false] : []))
            }
        }
    }

    @Test func concurrentReadsEachGetTheirOwnUsersRecords() async throws {
        try await withTemporarySQLiteFile { path in
            let storage = try SQLiteStorage(path: path)
            try await storage.migrate()
            let users = (0..<8).map { AppUserID(rawValue: "user-\($0)") }
            for (index, user) in users.enumerated() {
                let original = String(2000 + index)
                _ = try await storage.apply(
                    ContractFixture.evidence(
                        "buy-\(index)", by: user,
                        EvidenceRecords(transactions: [ContractFixture.transaction(original, original: original, purchased: 0)])),
                    with: ContractFixture.applier(), now: ContractFixture.day(1))
            }
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for round in 0..<200 {
                    let index = round % users.count
                    group.addTask {
                        let records = try await storage.records(ownedBy: users[index], appBundleID: ContractFixture.bundleID)
                        return records.evidence.transactions.map(\.originalTransactionID) == [String(2000 + index)]
                    }
                }
                for try await matched in group { #expect(matched) }
            }
        }
    }
}

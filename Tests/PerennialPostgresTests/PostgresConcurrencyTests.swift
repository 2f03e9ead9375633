import PerennialCore
@testable import PerennialPostgres
import PerennialStorage
import PerennialStorageContract
import Testing

/// Two server processes applying evidence about the same purchase at the same moment.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresConcurrencyTests {
    /// Each round races a purchase and its renewal through two storages (two pools) on one schema:
    /// both must be applied, and the stored records and view must contain both, whichever won.
    @Test func concurrentAppliesForOnePurchaseLoseNothing() async throws {
        try await PostgresTestDatabase.with { database in
            let schema = try await database.makeSchema()
            let first = try await database.makeStorage(schema: schema)
            let second = try await database.makeStorage(schema: schema)
            try await first.migrate()
            let alice: AppUserID = "alice"
            let now = ContractFixture.day(40)
            for round in 0..<5 {
                let original = "\(9000 + round)"
                let purchase = ContractFixture.evidence(
                    "p\(round)", by: alice,
                    EvidenceRecords(transactions: [ContractFixture.transaction(original, original: original, purchased: 0)]))
                let renewal = ContractFixture.evidence(
                    "r\(round)", by: alice,
                    EvidenceRecords(transactions: [ContractFixture.transaction("\(original)-2", original: original, purchased: 30)]))
                async let a = first.apply(purchase, with: ContractFixture.applier(), now: now)
                async let b = second.apply(renewal, with: ContractFixture.applier(), now: now)
                let results = try await [a, b]
                #expect(results.allSatisfy { if case .applied = $0 { true } else { false } })
                let stored = try await first.subscriber(alice, appBundleID: ContractFixture.bundleID)
                let ledger = try #require(stored.records.ledger(originalTransactionID: original))
                #expect(Set(ledger.transactions.map(\.transactionID)) == [original, "\(original)-2"])
                #expect(stored.view?.subscription(originalTransactionID: original)?.transactionID == "\(original)-2")
            }
        }
    }

    /// Apple's notifications about a purchase bound to no one take no user's lock, only the
    /// purchase's: racing an older and a newer renewal info through two storages, the newer must be
    /// the one stored, whichever commits first.
    @Test func racingNotificationsForAnUnboundPurchaseKeepTheNewerRenewalInfo() async throws {
        try await PostgresTestDatabase.with { database in
            let schema = try await database.makeSchema()
            let first = try await database.makeStorage(schema: schema)
            let second = try await database.makeStorage(schema: schema)
            try await first.migrate()
            for round in 0..<20 {
                let original = "\(7000 + round)"
                let older = ContractFixture.evidence(
                    "older\(round)", by: nil,
                    EvidenceRecords(renewalInfos: [ContractFixture.renewalInfo(original: original, willRenew: true, signed: 1)]))
                let newer = ContractFixture.evidence(
                    "newer\(round)", by: nil,
                    EvidenceRecords(renewalInfos: [ContractFixture.renewalInfo(original: original, willRenew: false, signed: 2)]))
                async let a = first.apply(older, with: ContractFixture.applier(), now: ContractFixture.day(3))
                async let b = second.apply(newer, with: ContractFixture.applier(), now: ContractFixture.day(3))
                _ = try await [a, b]
                let stored = try await first.transaction("read purchase \(original)") { rows in try await rows.records(of: [original]) }
                let info = try #require(stored.ledger(originalTransactionID: original)?.renewalInfo)
                #expect(info.willAutoRenew == false, "round \(round): the older renewal info overwrote the newer")
            }
        }
    }

    /// Two processes starting at once on an empty schema: the advisory lock makes the second wait
    /// and find every migration recorded, instead of failing on `CREATE TABLE`.
    @Test func concurrentMigrationsBothSucceed() async throws {
        try await PostgresTestDatabase.with { database in
            let schema = try await database.makeSchema()
            let first = try await database.makeStorage(schema: schema)
            let second = try await database.makeStorage(schema: schema)
            async let a: Void = first.migrate()
            async let b: Void = second.migrate()
            _ = try await (a, b)
            let purchase = ContractFixture.evidence(
                "k1", by: "alice", EvidenceRecords(transactions: [ContractFixture.transaction("1", original: "1", purchased: 0)]))
            let result = try await second.apply(purchase, with: ContractFixture.applier(), now: ContractFixture.day(1))
            guard case .applied = result else { Issue.record("expected an applied result, got \(result)"); return }
            #expect(try await first.subscriber("alice", appBundleID: ContractFixture.bundleID).view?.activeEntitlementIDs == ["premium"])
        }
    }
}

import Foundation
import PerennialCore
import PerennialStorage
import PerennialStorageContract
import Testing

/// The applier's decisions without a database: what a plan writes and what it leaves alone.
@Suite struct EvidenceApplierTests {
    let applier = ContractFixture.applier()
    let now = ContractFixture.day(10)
    let purchase = ContractFixture.transaction("1000", original: "1000", purchased: 0)

    @Test func evidenceWithoutRecordsIsRefused() {
        let evidence = ContractFixture.evidence("k", by: "alice", EvidenceRecords())
        #expect(throws: StorageError.emptyEvidence(idempotencyKey: "k")) {
            try applier.plan(for: evidence, snapshot: StorageSnapshot(), now: now)
        }
    }

    @Test func recordsAlreadyStoredAreNotWrittenAgain() throws {
        let records = EvidenceRecords(transactions: [purchase])
        let snapshot = StorageSnapshot(
            records: RecordSet(records), owners: ["1000": "alice"],
            users: ["alice": StorageSnapshot.User(records: RecordSet(records), view: nil)])
        let plan = try applier.plan(for: ContractFixture.evidence("k", by: "alice", records), snapshot: snapshot, now: now)
        #expect(plan.transactions.isEmpty && plan.renewalInfos.isEmpty && plan.bindings.isEmpty)
        #expect(plan.views["alice"]?.activeEntitlementIDs == ["premium"])
    }

    @Test func anUnownedPurchaseIsBoundToThePresenter() throws {
        let plan = try applier.plan(
            for: ContractFixture.evidence("k", by: "bob", EvidenceRecords(transactions: [purchase])), snapshot: StorageSnapshot(), now: now)
        #expect(plan.bindings == [WritePlan.Binding(originalTransactionID: "1000", appUserID: "bob")])
        #expect(plan.transactions == [purchase])
        #expect(plan.outbox.map(\.appUserID) == ["bob"])
    }

    /// A plan's analytics change is the subscription's new contribution minus its old, whichever
    /// of its records the evidence changes: the applier tells the facts which records both
    /// histories share by their ids, and a record with a new version is not one of them.
    @Test func aRefundOfAnyPeriodChangesTheAnalyticsByItsWholeDifference() throws {
        typealias P = AnalyticsPopulation
        let facts = SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))
        var stored = RecordSet()
        for evidence in P.evidence where (evidence.records.transactions.map(\.originalTransactionID) + evidence.records.renewalInfos.map(\.originalTransactionID)).contains("A") {
            stored.merge(evidence.records)
        }
        let history = try #require(stored.ledger(originalTransactionID: "A")).transactions
        #expect(history.count == 4)
        for index in history.indices {
            var refunded = history[index]
            refunded.revocation = Revocation(date: refunded.purchaseDate.addingTimeInterval(86_400), reason: .other, type: .refundFull)
            refunded.provenance.versionDate = refunded.provenance.versionDate.addingTimeInterval(2 * 86_400)
            let evidence = IncomingEvidence(
                appBundleID: P.bundleID, kind: .notificationV2, idempotencyKey: "refund \(index)", raw: Data("refund".utf8), receivedAt: P.at(4, 1),
                records: EvidenceRecords(transactions: [refunded]), presentedBy: nil, environment: .production)
            let plan = try P.applier.plan(for: evidence, snapshot: StorageSnapshot(records: stored), now: P.at(4, 1))
            #expect(plan.transactions == [refunded])
            var expected = AnalyticsCounters()
            facts.add(try #require(stored.merging(evidence.records).ledger(originalTransactionID: "A")), to: &expected)
            facts.add(try #require(stored.ledger(originalTransactionID: "A")), to: &expected, times: -1)
            #expect(!expected.isEmpty)
            #expect(plan.analytics == expected, "the refund of period \(index)")
        }
    }

    @Test func aNotificationForAnUnownedPurchaseProducesNoEvents() throws {
        let plan = try applier.plan(
            for: ContractFixture.evidence("n", by: nil, EvidenceRecords(transactions: [purchase])), snapshot: StorageSnapshot(), now: now)
        #expect(plan.bindings.isEmpty && plan.views.isEmpty && plan.outbox.isEmpty)
        #expect(plan.audit.map(\.appUserID) == [nil])
    }
}

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

    @Test func aNotificationForAnUnownedPurchaseProducesNoEvents() throws {
        let plan = try applier.plan(
            for: ContractFixture.evidence("n", by: nil, EvidenceRecords(transactions: [purchase])), snapshot: StorageSnapshot(), now: now)
        #expect(plan.bindings.isEmpty && plan.views.isEmpty && plan.outbox.isEmpty)
        #expect(plan.audit.map(\.appUserID) == [nil])
    }
}

import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/SubscriberStorage`` must have, written once and run by
/// each back end's test target (`@Test(arguments: StorageContract.Check.allCases)`), so SQLite and
/// PostgreSQL cannot drift apart.
public struct StorageContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case applyStoresRecordsViewEventsAndAudit
        case duplicateKeyChangesNothing
        case reorderedNotificationsGiveSameState
        case renewalsSeeTheHistoryTheStoredViewLeavesOut
        case unownedPurchaseWaitsForBinding
        case secondPresenterTakesOverWithTransfer
        case secondPresenterGetsNothingWithKeep
        case appAccountTokenIsStableAndBindsPurchases
        case failedApplyLeavesNoRows
        case migrationsAreIdempotent
        case pingAnswersAndEvidenceIsCounted
        case purchasesAreFoundByAnyOfTheirTransactionIDs
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage
    /// The instant every apply of the checks is computed at.
    let now = ContractFixture.day(10)

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .applyStoresRecordsViewEventsAndAudit: try await applyStoresRecordsViewEventsAndAudit(storage)
        case .duplicateKeyChangesNothing: try await duplicateKeyChangesNothing(storage)
        case .reorderedNotificationsGiveSameState: try await reorderedNotificationsGiveSameState(storage)
        case .renewalsSeeTheHistoryTheStoredViewLeavesOut: try await renewalsSeeTheHistoryTheStoredViewLeavesOut(storage)
        case .unownedPurchaseWaitsForBinding: try await unownedPurchaseWaitsForBinding(storage)
        case .secondPresenterTakesOverWithTransfer: try await secondPresenterTakesOverWithTransfer(storage)
        case .secondPresenterGetsNothingWithKeep: try await secondPresenterGetsNothingWithKeep(storage)
        case .appAccountTokenIsStableAndBindsPurchases: try await appAccountTokenIsStableAndBindsPurchases(storage)
        case .failedApplyLeavesNoRows: try await failedApplyLeavesNoRows(storage)
        case .migrationsAreIdempotent: try await migrationsAreIdempotent(storage)
        case .pingAnswersAndEvidenceIsCounted: try await pingAnswersAndEvidenceIsCounted(storage)
        case .purchasesAreFoundByAnyOfTheirTransactionIDs: try await purchasesAreFoundByAnyOfTheirTransactionIDs(storage)
        }
    }

    private let alice: AppUserID = "alice"
    private let bob: AppUserID = "bob"

    private func purchase(_ key: String, by user: AppUserID?, original: String = "1000") -> IncomingEvidence {
        ContractFixture.evidence(key, by: user, EvidenceRecords(transactions: [ContractFixture.transaction(original, original: original, purchased: 0)]))
    }

    /// A check expected evidence to be applied and it was not.
    struct NotApplied: Error, CustomStringConvertible {
        let result: ApplyResult
        var description: String { "expected the evidence to be applied, got \(result)" }
    }

    private func applied(_ result: ApplyResult) throws(NotApplied) -> AppliedEvidence {
        guard case .applied(let applied) = result else { throw NotApplied(result: result) }
        return applied
    }

    func applyStoresRecordsViewEventsAndAudit(_ storage: any SubscriberStorage) async throws {
        let evidence = purchase("k1", by: alice)
        let result = try applied(try await storage.apply(evidence, with: ContractFixture.applier(), now: now))
        #expect(result.views[alice]?.activeEntitlementIDs == ["premium"])
        #expect(result.events.map(\.kind) == [EventKind.initialPurchase.rawValue])
        let stored = try await storage.subscriber(alice, appBundleID: ContractFixture.bundleID)
        #expect(stored.records == RecordSet(evidence.records))
        #expect(stored.view == result.views[alice])
        #expect(stored.records.transaction(id: "1000")?.price == Money(milliUnits: 4_990, currency: "USD"))
        #expect(try await storage.records(ownedBy: alice, appBundleID: ContractFixture.bundleID) == stored.records)
        #expect(try await storage.records(ownedBy: bob, appBundleID: ContractFixture.bundleID).ledgers.isEmpty)
        let outbox = try await storage.pendingOutbox(limit: 10)
        #expect(outbox.map(\.event) == result.events)
        let payload = try JSONDecoder().decode(SubscriberEvent.self, from: try #require(outbox.first).event.payload)
        #expect(payload.kind == .initialPurchase && payload.originalTransactionID == "1000")
        let timeline = try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID)
        #expect(timeline.map(\.entry.kind) == [.bound, .evidenceApplied])
        #expect(timeline.allSatisfy { $0.evidenceID == result.evidenceID })
        let kept = try #require(try await storage.evidence(id: result.evidenceID))
        #expect(kept.raw == evidence.raw && kept.presentedBy == alice && kept.idempotencyKey == "k1" && kept.kind == .signedTransaction)
    }

    func duplicateKeyChangesNothing(_ storage: any SubscriberStorage) async throws {
        let first = try applied(try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(), now: now))
        var again = purchase("k1", by: bob)
        again.records.transactions.append(ContractFixture.transaction("1001", original: "1000", purchased: 30))
        let second = try await storage.apply(again, with: ContractFixture.applier(), now: ContractFixture.day(40))
        #expect(second == .duplicate(evidenceID: first.evidenceID))
        let stored = try await storage.subscriber(alice, appBundleID: ContractFixture.bundleID)
        #expect(stored.records.ledgers.first?.transactions.map(\.transactionID) == ["1000"])
        #expect(stored.view == first.views[alice])
        #expect(try await storage.subscriber(bob, appBundleID: ContractFixture.bundleID).records.ledgers.isEmpty)
        #expect(try await storage.pendingOutbox(limit: 10).count == first.events.count)
    }

    func reorderedNotificationsGiveSameState(_ storage: any SubscriberStorage) async throws {
        let renewal = ContractFixture.evidence(
            "n-renewal", by: nil, kind: .notificationV2,
            EvidenceRecords(
                transactions: [ContractFixture.transaction("1001", original: "1000", purchased: 30, source: .notificationV2)],
                renewalInfos: [ContractFixture.renewalInfo(original: "1000", willRenew: true, signed: 30)]))
        let cancellation = ContractFixture.evidence(
            "n-cancel", by: nil, kind: .notificationV2,
            EvidenceRecords(renewalInfos: [ContractFixture.renewalInfo(original: "1000", willRenew: false, signed: 35)]))
        let other = try await makeStorage()
        try await other.migrate()
        var states: [StoredSubscriber] = []
        for (target, order) in [(storage, [renewal, cancellation]), (other, [cancellation, renewal])] {
            _ = try await target.apply(purchase("k1", by: alice), with: ContractFixture.applier(), now: now)
            for evidence in order { _ = try await target.apply(evidence, with: ContractFixture.applier(), now: now) }
            states.append(try await target.subscriber(alice, appBundleID: ContractFixture.bundleID))
        }
        #expect(states[0] == states[1])
        let subscription = try #require(states[0].view?.subscription(originalTransactionID: "1000"))
        #expect(subscription.transactionID == "1001" && !subscription.willRenew)
    }

    /// Views are stored without their subscriptions' histories (`SubscriberView.storedForm`), so an
    /// apply must restore the history from the records to diff against: each renewal then yields
    /// its own event only, not the earlier periods' again, and the subscriber reads back whole.
    func renewalsSeeTheHistoryTheStoredViewLeavesOut(_ storage: any SubscriberStorage) async throws {
        var events: [[String]] = []
        var last: AppliedEvidence?
        for (index, purchased) in [0.0, 30, 60].enumerated() {
            let transaction = ContractFixture.transaction(String(1000 + index), original: "1000", purchased: purchased)
            let evidence = ContractFixture.evidence("k\(index)", by: alice, EvidenceRecords(transactions: [transaction]))
            let result = try applied(try await storage.apply(evidence, with: ContractFixture.applier(), now: ContractFixture.day(purchased + 1)))
            events.append(result.events.map(\.kind))
            last = result
        }
        let initial = EventKind.initialPurchase.rawValue, renewal = EventKind.renewal.rawValue
        #expect(events == [[initial], [renewal], [renewal]])
        let stored = try await storage.subscriber(alice, appBundleID: ContractFixture.bundleID)
        #expect(stored.view == last?.views[alice])
        #expect(stored.view?.subscription(originalTransactionID: "1000")?.history.map(\.transactionID) == ["1000", "1001", "1002"])
    }

    func unownedPurchaseWaitsForBinding(_ storage: any SubscriberStorage) async throws {
        let notification = purchase("n1", by: nil)
        let first = try applied(try await storage.apply(notification, with: ContractFixture.applier(), now: now))
        #expect(first.views.isEmpty && first.events.isEmpty)
        #expect(try await storage.pendingOutbox(limit: 10).isEmpty)
        let claim = ContractFixture.evidence(
            "k2", by: alice,
            EvidenceRecords(renewalInfos: [ContractFixture.renewalInfo(original: "1000", willRenew: true, signed: 2)]))
        let bound = try applied(try await storage.apply(claim, with: ContractFixture.applier(), now: now))
        #expect(bound.events.map(\.kind) == [EventKind.initialPurchase.rawValue])
        let stored = try await storage.subscriber(alice, appBundleID: ContractFixture.bundleID)
        #expect(stored.records.ledger(originalTransactionID: "1000")?.transactions.map(\.transactionID) == ["1000"])
    }

    func secondPresenterTakesOverWithTransfer(_ storage: any SubscriberStorage) async throws {
        _ = try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(.transfer), now: now)
        let result = try applied(try await storage.apply(purchase("k2", by: bob), with: ContractFixture.applier(.transfer), now: now))
        let change = OwnershipChange(originalTransactionID: "1000", previousOwner: alice, presenter: bob, decision: .transferred)
        #expect(result.ownershipChanges == [change])
        #expect(result.views[alice]?.activeEntitlementIDs == [])
        #expect(result.views[bob]?.activeEntitlementIDs == ["premium"])
        #expect(try await storage.subscriber(alice, appBundleID: ContractFixture.bundleID).records.ledgers.isEmpty)
        #expect(try await storage.subscriber(bob, appBundleID: ContractFixture.bundleID).view == result.views[bob])
        let told = try await storage.pendingOutbox(limit: 20).filter { $0.event.kind == OwnershipChange.Decision.transferred.rawValue }
        #expect(Set(told.map(\.event.appUserID)) == [alice, bob])
        #expect(try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID).contains { $0.entry.kind == .ownershipTransferred && $0.entry.detail.ownershipChange == change })
        #expect(try await storage.timeline(of: bob, appBundleID: ContractFixture.bundleID).contains { $0.entry.kind == .ownershipTransferred })
    }

    func secondPresenterGetsNothingWithKeep(_ storage: any SubscriberStorage) async throws {
        let first = try applied(try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(.keepWithOriginalOwner), now: now))
        let result = try applied(
            try await storage.apply(purchase("k2", by: bob), with: ContractFixture.applier(.keepWithOriginalOwner), now: now))
        #expect(result.ownershipChanges == [OwnershipChange(originalTransactionID: "1000", previousOwner: alice, presenter: bob, decision: .kept)])
        #expect(result.views[bob]?.activeEntitlementIDs == [])
        #expect(try await storage.subscriber(alice, appBundleID: ContractFixture.bundleID).view == first.views[alice])
        #expect(try await storage.subscriber(bob, appBundleID: ContractFixture.bundleID).records.ledgers.isEmpty)
        let told = try await storage.pendingOutbox(limit: 20).filter { $0.event.kind == OwnershipChange.Decision.kept.rawValue }
        #expect(Set(told.map(\.event.appUserID)) == [alice, bob])
        #expect(try await storage.timeline(of: bob, appBundleID: ContractFixture.bundleID).contains { $0.entry.kind == .ownershipKept })
    }

    func appAccountTokenIsStableAndBindsPurchases(_ storage: any SubscriberStorage) async throws {
        let app = ContractFixture.bundleID
        let token = try await storage.appAccountToken(for: alice, appBundleID: app)
        #expect(try await storage.appAccountToken(for: alice, appBundleID: app) == token)
        #expect(try await storage.appAccountToken(for: bob, appBundleID: app) != token)
        #expect(try await storage.appUser(forAppAccountToken: token, appBundleID: app) == alice)
        #expect(try await storage.appUser(forAppAccountToken: UUID(), appBundleID: app) == nil)
        // The same app user id in another app is another user: its own token, and neither token
        // names a user of the other app.
        let otherApp = "com.example.other"
        let otherToken = try await storage.appAccountToken(for: alice, appBundleID: otherApp)
        #expect(otherToken != token)
        #expect(try await storage.appUser(forAppAccountToken: token, appBundleID: otherApp) == nil)
        #expect(try await storage.appUser(forAppAccountToken: otherToken, appBundleID: app) == nil)
        let foreign = ContractFixture.evidence(
            "n0", by: nil, kind: .notificationV2,
            EvidenceRecords(transactions: [ContractFixture.transaction("1999", original: "1999", purchased: 0, token: otherToken)]))
        let unbound = try applied(try await storage.apply(foreign, with: ContractFixture.applier(), now: now))
        #expect(unbound.views.isEmpty)
        #expect(try await storage.purchase(ofTransaction: "1999")?.owner == nil)
        let notification = ContractFixture.evidence(
            "n1", by: nil, kind: .notificationV2,
            EvidenceRecords(transactions: [ContractFixture.transaction("2000", original: "2000", purchased: 0, token: token)]))
        let result = try applied(try await storage.apply(notification, with: ContractFixture.applier(), now: now))
        #expect(result.views[alice]?.activeEntitlementIDs == ["premium"])
        #expect(try await storage.subscriber(alice, appBundleID: ContractFixture.bundleID).records.transaction(id: "2000") != nil)
    }

    func failedApplyLeavesNoRows(_ storage: any SubscriberStorage) async throws {
        let empty = ContractFixture.evidence("k1", by: alice, EvidenceRecords())
        await #expect(throws: StorageError.emptyEvidence(idempotencyKey: "k1")) {
            try await storage.apply(empty, with: ContractFixture.applier(), now: now)
        }
        #expect(try await storage.pendingOutbox(limit: 10).isEmpty)
        #expect(try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID).isEmpty)
        // The evidence row written before the failure was rolled back: the key is still free.
        _ = try applied(try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(), now: now))
    }

    func migrationsAreIdempotent(_ storage: any SubscriberStorage) async throws {
        _ = try applied(try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(), now: now))
        try await storage.migrate()
        #expect(try await storage.subscriber(alice, appBundleID: ContractFixture.bundleID).view?.activeEntitlementIDs == ["premium"])
    }

    func pingAnswersAndEvidenceIsCounted(_ storage: any SubscriberStorage) async throws {
        try await storage.ping()
        #expect(try await storage.evidenceCount() == 0)
        _ = try applied(try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(), now: now))
        _ = try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(), now: now)
        await #expect(throws: StorageError.emptyEvidence(idempotencyKey: "k2")) {
            try await storage.apply(ContractFixture.evidence("k2", by: alice, EvidenceRecords()), with: ContractFixture.applier(), now: now)
        }
        // The duplicate and the failed apply stored nothing.
        #expect(try await storage.evidenceCount() == 1)
    }

    func purchasesAreFoundByAnyOfTheirTransactionIDs(_ storage: any SubscriberStorage) async throws {
        _ = try applied(try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(), now: now))
        let renewal = ContractFixture.transaction("1001", original: "1000", purchased: 1)
        _ = try applied(
            try await storage.apply(
                ContractFixture.evidence("k2", by: nil, EvidenceRecords(transactions: [renewal])), with: ContractFixture.applier(),
                now: now))
        _ = try applied(try await storage.apply(purchase("k3", by: nil, original: "2000"), with: ContractFixture.applier(), now: now))
        let owned = FoundPurchase(originalTransactionID: "1000", owner: alice, appBundleID: ContractFixture.bundleID)
        #expect(try await storage.purchase(ofTransaction: "1000") == owned)
        #expect(try await storage.purchase(ofTransaction: "1001") == owned)
        #expect(try await storage.purchase(ofTransaction: "2000") == FoundPurchase(originalTransactionID: "2000", owner: nil, appBundleID: nil))
        #expect(try await storage.purchase(ofTransaction: "9999") == nil)
    }
}

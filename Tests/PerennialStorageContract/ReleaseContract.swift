import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every back end's ``PerennialStorage/SubscriberStorage/releasePurchase(_:appBundleID:with:action:now:)``
/// must have, run by each back end's test target like ``StorageContract``: the binding goes with
/// the owner's view, events and audit in one transaction, the next presenter is bound, and a
/// purchase nobody in the app owns changes nothing.
public struct ReleaseContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case releaseUnbindsAndTheNextPresenterIsBound
        case aPurchaseNobodyOwnsInTheAppIsNotReleased
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage
    let now = ContractFixture.day(10)

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .releaseUnbindsAndTheNextPresenterIsBound: try await releaseUnbindsAndTheNextPresenterIsBound(storage)
        case .aPurchaseNobodyOwnsInTheAppIsNotReleased: try await aPurchaseNobodyOwnsInTheAppIsNotReleased(storage)
        }
    }

    private let alice: AppUserID = "alice"
    private let bob: AppUserID = "bob"
    private let action = AdminAction(admin: "desk", action: "unbind", reason: "wrong account")

    private func purchase(_ key: String, by user: AppUserID) -> IncomingEvidence {
        ContractFixture.evidence(key, by: user, EvidenceRecords(transactions: [ContractFixture.transaction("1000", original: "1000", purchased: 0)]))
    }

    func releaseUnbindsAndTheNextPresenterIsBound(_ storage: any SubscriberStorage) async throws {
        _ = try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(), now: now)
        let release = try #require(
            try await storage.releasePurchase("1000", appBundleID: ContractFixture.bundleID, with: ContractFixture.applier(), action: action, now: now))
        #expect(release.owner == alice && release.view.subscriptions.isEmpty && release.view.activeEntitlementIDs.isEmpty)
        #expect(try await storage.purchase(ofTransaction: "1000")?.owner == nil)
        #expect(try await storage.records(ownedBy: alice, appBundleID: ContractFixture.bundleID).ledgers.isEmpty)
        #expect(try await storage.subscriber(alice, appBundleID: ContractFixture.bundleID).view == release.view)

        let entry = try #require(try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID).last)
        #expect(entry.entry.kind == .ownershipReleased && entry.evidenceID == nil && entry.entry.detail.action == action)
        #expect(entry.entry.detail.ownershipChange?.decision == .released && entry.entry.detail.ownershipChange?.previousOwner == alice)
        let released = try await storage.pendingOutbox(limit: 50).filter { $0.event.kind == OwnershipChange.Decision.released.rawValue }
        let releasedEvent = try #require(released.first)
        #expect(released.map(\.event.appUserID) == [alice] && entry.entry.detail.eventIDs.contains(releasedEvent.event.eventID))

        // Unowned now: Bob presenting it is bound to it, without a transfer.
        let applied = try await storage.apply(purchase("k2", by: bob), with: ContractFixture.applier(.keepWithOriginalOwner), now: now)
        guard case .applied(let result) = applied else { Issue.record("bob's purchase was not applied"); return }
        #expect(result.ownershipChanges.isEmpty && result.views[bob]?.activeEntitlementIDs == ["premium"])
        #expect(try await storage.purchase(ofTransaction: "1000")?.owner == bob)
    }

    func aPurchaseNobodyOwnsInTheAppIsNotReleased(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.releasePurchase("1000", appBundleID: ContractFixture.bundleID, with: ContractFixture.applier(), action: action, now: now) == nil)
        _ = try await storage.apply(purchase("k1", by: alice), with: ContractFixture.applier(), now: now)
        let timeline = try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID)
        #expect(try await storage.releasePurchase("1000", appBundleID: "com.example.other", with: ContractFixture.applier(), action: action, now: now) == nil)
        #expect(try await storage.purchase(ofTransaction: "1000")?.owner == alice)
        #expect(try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID) == timeline)
    }
}

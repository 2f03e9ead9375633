import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/EntitlementGrantStore`` must have, run by each back
/// end's test target like ``StorageContract``: a grant is stored with its event and timeline entry
/// or not at all, only for a known user, and revoked once.
public struct GrantContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case grantIsStoredWithItsEventAndTimelineEntry
        case grantToAnUnknownUserChangesNothing
        case anAppAccountTokenMakesAUserKnown
        case revokeEndsARunningGrantOnce
        case endedOrForeignGrantsAreNotRevoked
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
        case .grantIsStoredWithItsEventAndTimelineEntry: try await grantIsStoredWithItsEventAndTimelineEntry(storage)
        case .grantToAnUnknownUserChangesNothing: try await grantToAnUnknownUserChangesNothing(storage)
        case .anAppAccountTokenMakesAUserKnown: try await anAppAccountTokenMakesAUserKnown(storage)
        case .revokeEndsARunningGrantOnce: try await revokeEndsARunningGrantOnce(storage)
        case .endedOrForeignGrantsAreNotRevoked: try await endedOrForeignGrantsAreNotRevoked(storage)
        }
    }

    private let alice: AppUserID = "alice"
    private let bob: AppUserID = "bob"
    private let support = AdminAction(admin: "desk", action: "grant", reason: "outage on the 3rd")

    private func grant(_ id: String, days: Double = 7) -> EntitlementGrant {
        EntitlementGrant(
            id: id, entitlementID: "premium", startsAt: now, expiresAt: now.addingTimeInterval(days * 86_400), grantedBy: "desk",
            reason: "outage on the 3rd")
    }

    /// Alice bought a subscription: a stored subscriber.
    private func aliceIsKnown(_ storage: any SubscriberStorage) async throws {
        let evidence = ContractFixture.evidence(
            "k1", by: alice, EvidenceRecords(transactions: [ContractFixture.transaction("1000", original: "1000", purchased: 0)]))
        _ = try await storage.apply(evidence, with: ContractFixture.applier(), now: now)
    }

    private func write(_ grant: EntitlementGrant, to user: AppUserID) throws -> GrantWrite {
        try GrantWrite.granting(grant, to: user, appBundleID: ContractFixture.bundleID, by: support, now: now)
    }

    func grantIsStoredWithItsEventAndTimelineEntry(_ storage: any SubscriberStorage) async throws {
        try await aliceIsKnown(storage)
        let given = grant("grant_1")
        #expect(try await storage.addGrant(try write(given, to: alice)))
        #expect(try await storage.grants(of: alice, appBundleID: ContractFixture.bundleID) == [given])
        #expect(try await storage.grants(of: alice, appBundleID: "com.example.other").isEmpty)

        let event = try #require(try await storage.pendingOutbox(limit: 50).last)
        #expect(event.event.kind == EntitlementGrant.EventKind.entitlementGranted.rawValue)
        #expect(event.event.eventID == given.eventID(.entitlementGranted) && event.event.appUserID == alice)
        #expect(try JSONDecoder().decode(EntitlementGrant.self, from: event.event.payload) == given)

        let entry = try #require(try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID).last)
        #expect(entry.evidenceID == nil && entry.entry.kind == .entitlementGranted)
        #expect(entry.entry.detail.grant == given && entry.entry.detail.action == support)
        #expect(entry.entry.detail.eventIDs == [given.eventID(.entitlementGranted)])
    }

    func grantToAnUnknownUserChangesNothing(_ storage: any SubscriberStorage) async throws {
        try await aliceIsKnown(storage)
        let outbox = try await storage.pendingOutbox(limit: 50)
        #expect(try await storage.addGrant(try write(grant("grant_1"), to: bob)) == false)
        #expect(try await storage.grants(of: bob, appBundleID: ContractFixture.bundleID).isEmpty)
        #expect(try await storage.timeline(of: bob, appBundleID: ContractFixture.bundleID).isEmpty)
        #expect(try await storage.pendingOutbox(limit: 50) == outbox)
    }

    func anAppAccountTokenMakesAUserKnown(_ storage: any SubscriberStorage) async throws {
        // A token in another app says nothing about this app's bob.
        _ = try await storage.appAccountToken(for: bob, appBundleID: "com.example.other")
        #expect(try await storage.addGrant(try write(grant("grant_0"), to: bob)) == false)
        _ = try await storage.appAccountToken(for: bob, appBundleID: ContractFixture.bundleID)
        #expect(try await storage.addGrant(try write(grant("grant_1"), to: bob)))
        // A user with a grant is known: a second grant needs nothing else.
        #expect(try await storage.addGrant(try write(grant("grant_2", days: 30), to: bob)))
        #expect(try await storage.grants(of: bob, appBundleID: ContractFixture.bundleID).map(\.id) == ["grant_1", "grant_2"])
    }

    func revokeEndsARunningGrantOnce(_ storage: any SubscriberStorage) async throws {
        try await aliceIsKnown(storage)
        let given = grant("grant_1")
        #expect(try await storage.addGrant(try write(given, to: alice)))
        let revokedAt = now.addingTimeInterval(86_400)
        let action = AdminAction(admin: "lead", action: "revokeGrant", reason: "given to the wrong account")
        let revoked = try #require(
            try await storage.revokeGrant(id: "grant_1", of: alice, appBundleID: ContractFixture.bundleID, by: action, at: revokedAt))
        #expect(revoked.revokedAt == revokedAt && revoked.revokedBy == "lead" && revoked.revokeReason == "given to the wrong account")
        #expect(revoked.accessEndsAt == revokedAt && !revoked.isActive(at: revokedAt))
        #expect(try await storage.grants(of: alice, appBundleID: ContractFixture.bundleID) == [revoked])

        let again = try await storage.revokeGrant(id: "grant_1", of: alice, appBundleID: ContractFixture.bundleID, by: action, at: revokedAt)
        #expect(again == nil)
        let revokes = try await storage.pendingOutbox(limit: 50).filter { $0.event.kind == EntitlementGrant.EventKind.grantRevoked.rawValue }
        #expect(revokes.map(\.event.eventID) == [given.eventID(.grantRevoked)])
        let entries = try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID).filter { $0.entry.kind == .grantRevoked }
        #expect(entries.count == 1 && entries.first?.entry.detail.action == action && entries.first?.entry.detail.grant == revoked)
    }

    func endedOrForeignGrantsAreNotRevoked(_ storage: any SubscriberStorage) async throws {
        try await aliceIsKnown(storage)
        #expect(try await storage.addGrant(try write(grant("grant_1"), to: alice)))
        let timeline = try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID)
        let app = ContractFixture.bundleID
        let action = AdminAction(admin: "lead", action: "revokeGrant", reason: nil)
        #expect(try await storage.revokeGrant(id: "grant_1", of: alice, appBundleID: app, by: action, at: now.addingTimeInterval(8 * 86_400)) == nil)
        #expect(try await storage.revokeGrant(id: "grant_1", of: bob, appBundleID: app, by: action, at: now) == nil)
        #expect(try await storage.revokeGrant(id: "grant_1", of: alice, appBundleID: "com.example.other", by: action, at: now) == nil)
        #expect(try await storage.revokeGrant(id: "grant_9", of: alice, appBundleID: app, by: action, at: now) == nil)
        #expect(try await storage.grants(of: alice, appBundleID: app).first?.revokedAt == nil)
        #expect(try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID) == timeline)
    }
}

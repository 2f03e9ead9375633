import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every back end's ``PerennialStorage/PersonalDataStore`` must have, run by each
/// back end's test target like ``StorageContract``: an export finds every row about the user, an
/// erasure leaves no stored value that names the user while Apple's records stay, another app's
/// user of the same id is untouched, and a repeated erasure changes nothing.
public struct PersonalDataContract: Sendable {
    public enum Check: String, CaseIterable, Sendable {
        case erasureLeavesNothingThatNamesTheUser
        case anotherAppsUserOfTheSameIDIsUntouched
        case aRepeatedErasureOrAnUnknownUserChangesNothing
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage
    /// Every value stored in the storage's database, as text (BLOBs as UTF-8), whatever the table:
    /// what the erasure is checked against, so a table added later is covered.
    public let storedText: @Sendable (any SubscriberStorage) async throws -> String

    public init(
        makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage,
        storedText: @escaping @Sendable (any SubscriberStorage) async throws -> String
    ) {
        self.makeStorage = makeStorage
        self.storedText = storedText
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .erasureLeavesNothingThatNamesTheUser: try await erasureLeavesNothingThatNamesTheUser(storage)
        case .anotherAppsUserOfTheSameIDIsUntouched: try await anotherAppsUserOfTheSameIDIsUntouched(storage)
        case .aRepeatedErasureOrAnUnknownUserChangesNothing: try await aRepeatedErasureOrAnUnknownUserChangesNothing(storage)
        }
    }

    /// An id that JSON escapes (`/`) and that no other stored value contains by chance.
    private let user: AppUserID = "team/erase.me@example.com"
    private let bob: AppUserID = "bob"
    private let otherApp = "com.example.other"
    private let now = ContractFixture.day(20)
    private let desk = AdminAction(admin: "desk", action: "erasePersonalData", reason: "ticket 42")

    private func erasure(in app: String = ContractFixture.bundleID) -> PersonalDataErasure {
        PersonalDataErasure(appUserID: user, appBundleID: app, action: desk, at: now)
    }

    private func purchase(_ id: String, key: String, by presenter: AppUserID, token: UUID? = nil, app: String = ContractFixture.bundleID) -> IncomingEvidence {
        var evidence = ContractFixture.evidence(
            key, by: presenter, EvidenceRecords(transactions: [ContractFixture.transaction(id, original: id, purchased: 0, token: token)]))
        evidence.appBundleID = app
        return evidence
    }

    /// The user has a token, two purchases (one later moved to Bob by Bob presenting it, so Bob's
    /// timeline and events name the user), a grant, an app transaction, a consumption report and
    /// a refund request that names the user.
    private func knownUser(_ storage: any SubscriberStorage, app: String = ContractFixture.bundleID) async throws -> UUID {
        let token = try await storage.appAccountToken(for: user, appBundleID: app)
        let applier = ContractFixture.applier(.transfer)
        _ = try await storage.apply(purchase("1000", key: "k1-\(app)", by: user, token: token, app: app), with: applier, now: ContractFixture.day(1))
        _ = try await storage.apply(purchase("2000", key: "k2-\(app)", by: user, app: app), with: applier, now: ContractFixture.day(1))
        _ = try await storage.apply(purchase("2000", key: "k3-\(app)", by: bob, app: app), with: applier, now: ContractFixture.day(2))
        let grant = EntitlementGrant(
            id: "grant-\(app)", entitlementID: "premium", startsAt: ContractFixture.day(3), expiresAt: ContractFixture.day(40), grantedBy: "desk",
            reason: "goodwill for \(user.rawValue)")
        #expect(try await storage.addGrant(GrantWrite.granting(grant, to: user, appBundleID: app, by: desk, now: ContractFixture.day(3))))
        _ = try await storage.recordAppTransaction(
            OriginalAppPurchase(appTransactionID: "700", originalApplicationVersion: "1.0", originalPurchaseDate: ContractFixture.day(0), environment: .sandbox),
            of: user, appBundleID: app, signed: "signed-app-transaction", receivedAt: ContractFixture.day(3))
        try await storage.reportConsumption(
            ConsumptionReport(consumptionPercentage: 10, deliveryStatus: nil, sampleContentProvided: nil, reportedAt: ContractFixture.day(4)),
            of: user, appBundleID: app)
        let request = RefundRequestRecord(
            id: "refund-\(app)", appBundleID: app, environment: .sandbox, transactionID: "1000", originalTransactionID: "1000",
            productID: ContractFixture.productID, purchaseDate: ContractFixture.day(0), expiresDate: nil, appUserID: user, reason: nil,
            requestedAt: ContractFixture.day(5), state: .pending)
        #expect(try await storage.addConsumptionRequest(request, audit: request.audit(.consumptionRequested, at: ContractFixture.day(5))))
        return token
    }

    func erasureLeavesNothingThatNamesTheUser(_ storage: any SubscriberStorage) async throws {
        let token = try await knownUser(storage)
        let app = ContractFixture.bundleID
        let exported = try #require(try await storage.personalData(of: user, appBundleID: app))
        #expect(exported.appAccountToken == token)
        #expect(exported.purchases.map(\.originalTransactionID) == ["1000"])
        #expect(exported.webhookEvents.contains { $0.event.kind == EntitlementGrant.EventKind.entitlementGranted.rawValue })
        #expect(exported.presentedEvidenceIDs.count == 2)
        #expect(try await storedText(storage).contains(user.rawValue))
        let evidenceBefore = try await storage.evidenceCount()

        let erased = try #require(try await storage.erasePersonalData(erasure()))
        #expect(erased.releasedPurchases == ["1000"])
        #expect(erased.anonymizedEvidence == 2)
        #expect(erased.rewrittenMentions >= 2)  // Bob's ownership entry and event, the refund request

        // No stored value names the user, in any table, in any form the storage writes.
        let text = try await storedText(storage)
        let escaped = String(decoding: try JSONEncoder().encode(user.rawValue), as: UTF8.self).dropFirst().dropLast()
        #expect(!text.contains(user.rawValue) && !text.contains(escaped) && !text.contains("erase.me@example.com"))
        #expect(!text.contains("goodwill"))
        // Nothing leads back to the user: the token, the purchases, the reads.
        #expect(try await storage.appUser(forAppAccountToken: token, appBundleID: app) == nil)
        #expect(try await storage.personalData(of: user, appBundleID: app) == nil)
        #expect(try await storage.grants(of: user, appBundleID: app).isEmpty)
        #expect(try await storage.appTransaction(of: user, appBundleID: app) == nil)
        #expect(try await storage.consumptionReport(of: user, appBundleID: app) == nil)
        #expect(try await storage.records(ownedBy: user, appBundleID: app).ledgers.isEmpty)
        // Apple's records and the evidence stay, unbound; Bob's story stays, naming an erased user.
        #expect(try await storage.evidenceCount() == evidenceBefore)
        let found = try #require(try await storage.purchase(ofTransaction: "1000"))
        #expect(found.owner == nil)
        #expect(try await storage.purchase(ofTransaction: "2000")?.owner == bob)
        let bobTimeline = try await storage.timeline(of: bob, appBundleID: app)
        #expect(bobTimeline.contains { $0.entry.detail.ownershipChange?.previousOwner == PersonalDataErasure.erasedUser })
        #expect(try await storage.consumptionRequests(appBundleID: app, limit: 10).map(\.appUserID) == [PersonalDataErasure.erasedUser])
        // The erasure is in the stored timeline, naming the operator and the reason, not the user.
        #expect(text.contains(AuditKind.personalDataErased.rawValue) && text.contains("ticket 42"))
    }

    func anotherAppsUserOfTheSameIDIsUntouched(_ storage: any SubscriberStorage) async throws {
        _ = try await knownUser(storage)
        let otherToken = try await knownUser(storage, app: otherApp)
        #expect(try await storage.erasePersonalData(erasure()) != nil)
        let kept = try #require(try await storage.personalData(of: user, appBundleID: otherApp))
        #expect(kept.appAccountToken == otherToken)
        #expect(try await storage.grants(of: user, appBundleID: otherApp).count == 1)
        #expect(try await storage.appTransaction(of: user, appBundleID: otherApp) != nil)
        #expect(try await storage.consumptionReport(of: user, appBundleID: otherApp) != nil)
        #expect(try await !storage.timeline(of: user, appBundleID: otherApp).isEmpty)
        #expect(try await storage.consumptionRequests(appBundleID: otherApp, limit: 10).map(\.appUserID) == [user])
        #expect(try await storage.timeline(of: user, appBundleID: ContractFixture.bundleID).isEmpty)
    }

    func aRepeatedErasureOrAnUnknownUserChangesNothing(_ storage: any SubscriberStorage) async throws {
        _ = try await knownUser(storage)
        #expect(try await storage.erasePersonalData(erasure()) != nil)
        let text = try await storedText(storage)
        #expect(try await storage.erasePersonalData(erasure()) == nil)
        #expect(try await storage.erasePersonalData(PersonalDataErasure(appUserID: "nobody", appBundleID: ContractFixture.bundleID, action: desk, at: now)) == nil)
        #expect(try await storedText(storage) == text)
    }
}

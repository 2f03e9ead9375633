import Foundation
import Testing
@testable import PerennialClient

@Suite struct PurchaseTests {
    @Test func aPurchaseReturnsTheServersEntitlementAndFinishesOnce() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        await sdk.start()
        let result = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        guard case .success(let subscriber) = result else { Issue.record("expected success, got \(result)"); return }
        #expect(subscriber.activeEntitlements == ["pro"])
        #expect(subscriber.entitlements["pro"]?.transactionID == "T1")
        #expect(await app.server.posts == [FakeServer.Post(transactionID: "T1", appUserID: "alice")])
        #expect(await app.store.finishCount(of: "T1") == 1)
        #expect(await sdk.pendingTransactionCount() == 0)
        await sdk.stop()
    }

    @Test func aDoubleTapPaysOnce() async throws {
        let app = SDKFixture()
        let gate = Gate()
        await app.store.holdPurchases(at: gate)
        let sdk = app.launch()
        async let first = sdk.purchase(StoreProduct(id: "pro.monthly"))
        #expect(await eventually { await gate.arrivals == 1 })
        async let second = sdk.purchase(StoreProduct(id: "pro.monthly"))
        #expect(await eventually { await sdk.coordinator.joined["pro.monthly"] == 1 })
        await gate.open()
        let results = await [first, second]
        #expect(await app.store.purchaseCalls == 1)
        #expect(results[0] == results[1])
        #expect(await app.server.posts.count == 1)
    }

    @Test func cancelledAndPendingPurchasesJournalNothing() async {
        let app = SDKFixture()
        let sdk = app.launch()
        await app.store.setMode(.cancel)
        #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .userCancelled)
        await app.store.setMode(.askToBuy)
        #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .pending)
        #expect(await sdk.pendingTransactionCount() == 0)
        #expect(await app.server.posts.isEmpty)
    }

    @Test func serverDownAtPurchaseKeepsItJournaledUntilTheServerReturns() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        await app.server.setUp(false)
        let result = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        #expect(result == .failed(.notYetDelivered(transactionID: "T1", reason: .unreachable("connection refused"))))
        if case .failed(let error) = result { #expect(error.isPaymentPending) }
        #expect(await sdk.pendingTransactionCount() == 1)
        #expect(await app.store.finishCount(of: "T1") == 0)

        await app.server.setUp(true)
        #expect(await sdk.syncPendingTransactions() == 0)
        #expect(await app.server.postCount(of: "T1") == 1)
        #expect(await app.store.finishCount(of: "T1") == 1)
        #expect(await sdk.cachedSubscriber()?.activeEntitlements == ["pro"])
    }

    @Test func aQueuedPurchaseIsRetriedOnItsOwnAndArrivesAsAnUpdate() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        await sdk.start()
        await app.server.setUp(false)
        #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) != .pending)
        var updates = sdk.subscriberUpdates.makeAsyncIterator()
        await app.server.setUp(true)
        app.clock.advance(by: 1)
        // The backoff timer (50 ms here) retries without anyone asking.
        var delivered: Subscriber?
        while let next = await updates.next() {
            if next.activeEntitlements.contains("pro") { delivered = next; break }
        }
        #expect(delivered?.entitlements["pro"]?.transactionID == "T1")
        #expect(await app.server.postCount(of: "T1") == 1)
        #expect(await eventually { await app.store.finishCount(of: "T1") == 1 })
        await sdk.stop()
    }

    @Test func aUserSwitchDoesNotMoveAnUndeliveredPurchase() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        await app.server.setUp(false)
        _ = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        app.appUserID = "bob"
        await app.server.setUp(true)
        let bobs = try await sdk.subscriber()
        var updates = sdk.subscriberUpdates.makeAsyncIterator()
        #expect(await updates.next()?.appUserID == "bob")
        await sdk.syncPendingTransactions()
        #expect(await app.server.posts == [FakeServer.Post(transactionID: "T1", appUserID: "alice")])
        // Alice's answer to her purchase neither replaces Bob's nor reaches the app as his.
        #expect(await sdk.cachedSubscriber() == bobs)
        #expect(try await sdk.subscriber().activeEntitlements.isEmpty)
        #expect(await updates.next()?.appUserID == "bob")
    }

    @Test func aPromotionalOfferIsSignedByTheServerFirst() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        let result = await sdk.purchase(StoreProduct(id: "pro.monthly"), options: PurchaseOptions(promotionalOfferID: "winback"))
        guard case .success = result else { Issue.record("expected success, got \(result)"); return }
        await app.server.setUp(false)
        #expect(
            await sdk.purchase(StoreProduct(id: "pro.yearly"), options: PurchaseOptions(promotionalOfferID: "winback"))
                == .failed(.server(.unreachable("connection refused"))))
        #expect(await app.store.purchaseCalls == 1)
    }

    /// The legacy offer signature covers the user's app account token: without the token StoreKit
    /// would refuse the signature, so the purchase stops before the payment sheet, saying why.
    @Test func aPromotionalOfferWithoutItsAppAccountTokenFailsBeforeThePayment() async {
        let app = SDKFixture()
        await app.server.failAppAccountTokens(with: .http(status: 503, code: nil, message: nil))
        let sdk = app.launch()
        let result = await sdk.purchase(StoreProduct(id: "pro.monthly"), options: PurchaseOptions(promotionalOfferID: "comeback"))
        #expect(result == .failed(.appAccountTokenUnavailable(.http(status: 503, code: nil, message: nil))))
        #expect(await app.store.purchaseCalls == 0)
    }

    /// Nothing is signed for the token without an offer: the purchase goes ahead without it (the
    /// upload's path names the buyer, so attribution does not depend on it).
    @Test func aPurchaseWithoutAnOfferGoesAheadWithoutTheToken() async {
        let app = SDKFixture()
        await app.server.failAppAccountTokens(with: .http(status: 503, code: nil, message: nil))
        let sdk = app.launch()
        guard case .success(let subscriber) = await sdk.purchase(StoreProduct(id: "pro.monthly")) else { Issue.record("purchase failed"); return }
        #expect(subscriber.activeEntitlements == ["pro"])
        #expect(await app.store.purchaseTokens == [nil])
    }

    @Test func aJournalThatCannotBeWrittenFinishesNothing() async {
        let app = SDKFixture()
        let sdk = app.launch(app.configuration(journalStore: BrokenStore()))
        let result = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        guard case .failed(.journalUnavailable) = result else { Issue.record("expected journalUnavailable, got \(result)"); return }
        #expect(await app.server.posts.isEmpty)
        #expect(await app.store.finishCount(of: "T1") == 0)
        #expect(await app.store.unfinished.map(\.transactionID) == ["T1"])
    }

    @Test func introEligibilityComesFromTheServer() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        _ = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        #expect(try await sdk.checkIntroEligibility(["pro", "other"]) == ["pro": .ineligible, "other": .eligible])
    }
}

/// A disk that refuses every write.
struct BrokenStore: PersistentStore {
    struct DiskFull: Error {}
    func load() throws -> Data? { nil }
    func save(_ data: Data) throws { throw DiskFull() }
}

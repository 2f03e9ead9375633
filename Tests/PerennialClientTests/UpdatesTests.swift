import Foundation
import Testing
@testable import PerennialClient

@Suite struct UpdatesTests {
    @Test func askToBuyIsPendingThenTheApprovalArrivesThroughUpdates() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        await sdk.start()
        await app.store.setMode(.askToBuy)
        #expect(await sdk.purchase(StoreProduct(id: "pro.monthly")) == .pending)
        var updates = sdk.subscriberUpdates.makeAsyncIterator()
        #expect(await updates.next()?.activeEntitlements == [])  // the latest known state, replayed

        await app.store.emitUpdate(productID: "pro.monthly")  // the parent approves
        let approved = await updates.next()
        #expect(approved?.activeEntitlements == ["pro"])
        #expect(await app.server.posts.count == 1)
        #expect(await eventually { await app.store.unfinished.isEmpty })
        await sdk.stop()
    }

    @Test func aRenewalMadeWhileTheAppWasClosedIsPickedUpAtStart() async throws {
        let app = SDKFixture()
        let renewal = await app.store.addUnfinished(productID: "pro.monthly")
        let sdk = app.launch()
        var updates = sdk.subscriberUpdates.makeAsyncIterator()
        await sdk.start()
        #expect(await app.server.posts == [FakeServer.Post(transactionID: renewal.transactionID, appUserID: "alice")])
        #expect(await app.store.finishCount(of: renewal.transactionID) == 1)
        #expect(await updates.next()?.entitlements["pro"]?.transactionID == renewal.transactionID)
        await sdk.stop()
    }

    @Test func startPostsTheAppTransactionOnlyWhileTheServerDoesNotKnowTheOriginalPurchase() async throws {
        let app = SDKFixture()
        let first = app.launch()
        await first.start()
        #expect(await app.server.appTransactions.isEmpty, "a store without an app transaction posts nothing")
        #expect(try await first.subscriber().originalAppPurchase == nil)
        await first.stop()

        await app.store.setAppTransaction("app.transaction.jws")
        let second = app.launch()
        await second.start()
        #expect(await app.server.appTransactions == ["app.transaction.jws"])
        #expect(try await second.subscriber().originalAppPurchase?.originalApplicationVersion == "1.0")
        await second.stop()

        let third = app.launch()
        await third.start()
        #expect(await app.server.appTransactions.count == 1, "known: not posted again")
        await third.stop()
    }

    /// currentEntitlements holds unfinished transactions too: one a restore delivered is still
    /// finished when the store hands it over (it was remembered as delivered and never finished).
    @Test func aTransactionARestoreDeliveredIsFinishedWhenTheStoreHandsItOver() async throws {
        let app = SDKFixture()
        let left = await app.store.addUnfinished(productID: "pro.monthly")
        let sdk = app.launch()
        _ = try await sdk.restorePurchases(syncWithAppStore: false)
        #expect(await app.store.finishCount(of: left.transactionID) == 0)
        await sdk.start()
        #expect(await app.store.finishCount(of: left.transactionID) == 1)
        #expect(await app.store.unfinished.isEmpty)
        await sdk.stop()
    }

    /// The same while the restore's upload still waits: the store's hand-over makes it one to finish.
    @Test func aTransactionARestoreJournaledIsFinishedOnceDelivered() async throws {
        let app = SDKFixture()
        let left = await app.store.addUnfinished(productID: "pro.monthly")
        let sdk = app.launch()
        await app.server.setUp(false)
        _ = try? await sdk.restorePurchases(syncWithAppStore: false)
        await sdk.start()
        await app.server.setUp(true)
        #expect(await sdk.syncPendingTransactions() == 0)
        #expect(await app.store.finishCount(of: left.transactionID) == 1)
        await sdk.stop()
    }

    @Test func restoreResendsCurrentEntitlementsForTheCurrentUser() async throws {
        let app = SDKFixture()
        _ = await app.launch().purchase(StoreProduct(id: "pro.monthly"))
        app.appUserID = "bob"
        let sdk = app.launch()
        let restored = try await sdk.restorePurchases()
        #expect(restored.appUserID == "bob")
        #expect(restored.activeEntitlements == ["pro"])
        #expect(await app.server.posts.last == FakeServer.Post(transactionID: "T1", appUserID: "bob"))
        #expect(await app.store.finishCount(of: "T1") == 1)
    }
}

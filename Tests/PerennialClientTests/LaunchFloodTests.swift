import Foundation
import Testing
@testable import PerennialClient

@Suite struct LaunchFloodTests {
    @Test(arguments: [1, 4])
    func fortyTransactionsAtLaunchArePostedOnceEachWithBoundedConcurrency(limit: Int) async throws {
        let app = SDKFixture()
        await app.server.setUploadDelay(.milliseconds(2))
        var ids: [String] = []
        for _ in 0..<40 { ids.append(await app.store.addUnfinished(productID: "pro.monthly").transactionID) }
        let sdk = app.launch(app.configuration(maxConcurrentUploads: limit))
        await sdk.start()

        let posts = await app.server.posts
        #expect(posts.count == 40)
        #expect(Set(posts.map(\.transactionID)) == Set(ids))
        #expect(await app.server.maxInFlight <= limit)
        if limit > 1 { #expect(await app.server.maxInFlight > 1) }
        for id in ids { #expect(await app.store.finishCount(of: id) == 1) }
        // The newest server answer wins, whatever order the answers came back in.
        #expect(await sdk.cachedSubscriber()?.lastServerContact == app.server.serverTime)
        await sdk.stop()
    }

    @Test func eachUploadsResultIsKeptUnderItsOwnTransaction() async throws {
        let app = SDKFixture()
        await app.server.setUploadDelay(.milliseconds(1))
        let sdk = app.launch(app.configuration(maxConcurrentUploads: 4))
        for index in 0..<40 {
            let transaction = try StoreTransaction(signedTransaction: FakeJWS.make(transactionID: "F\(index)", productID: "pro.monthly"))
            _ = try await sdk.uploader.record(transaction, appUserID: "alice", origin: .storeUpdate)
        }
        let outcomes = await sdk.uploader.deliverDue()
        #expect(outcomes.count == 40)
        for (key, outcome) in outcomes {
            guard case .delivered(let subscriber) = outcome else { Issue.record("\(key): \(outcome)"); continue }
            #expect(subscriber.entitlements["pro"]?.transactionID == key)
        }
    }

    @Test func aDrainWhoseSlotsAreTakenByAnotherWaitsForTheirUploads() async throws {
        let app = SDKFixture()
        await app.server.setUploadDelay(.milliseconds(300))
        let sdk = app.launch(app.configuration(maxConcurrentUploads: 4))
        for index in 0..<4 {
            let transaction = try StoreTransaction(signedTransaction: FakeJWS.make(transactionID: "S\(index)", productID: "pro.monthly"))
            _ = try await sdk.uploader.record(transaction, appUserID: "alice", origin: .storeUpdate)
        }
        // The updates stream's drain takes every slot…
        let first = Task { await sdk.uploader.deliverDue() }
        #expect(await eventually { await app.server.inFlight == 4 })
        // …so launch's own drain uploads nothing itself, but must not return before they are delivered.
        let second = await sdk.uploader.deliverDue()
        #expect(second.isEmpty)
        #expect(await sdk.uploader.undeliveredCount == 0)
        #expect(await first.value.count == 4)
        #expect(await app.server.posts.count == 4)
    }

    @Test func storeUpdatesAndUnfinishedOverlapWithoutDoublePosting() async throws {
        let app = SDKFixture()
        let sdk = app.launch()
        await sdk.start()
        let transaction = await app.store.addUnfinished(productID: "pro.monthly")
        // The same transaction arrives through the updates stream and an explicit sync.
        await app.store.emitUpdate(productID: "other")
        await sdk.syncPendingTransactions()
        #expect(await eventually { await app.server.posts.count == 2 })
        await sdk.syncPendingTransactions()
        #expect(await app.server.postCount(of: transaction.transactionID) == 1)
        await sdk.stop()
    }

    @Test func aFullJournalRefusesUpdatesThatTheStoreHandsOverAgainLater() async throws {
        let app = SDKFixture()
        await app.server.setUp(false)
        for _ in 0..<5 { await app.store.addUnfinished(productID: "pro.monthly") }
        let sdk = app.launch(app.configuration(capacity: 3))
        await sdk.start()
        #expect(await sdk.pendingTransactionCount() == 3)
        // A purchase is never refused, even with the journal full.
        _ = await sdk.purchase(StoreProduct(id: "pro.yearly"))
        #expect(await sdk.pendingTransactionCount() == 4)
        #expect(await app.store.unfinished.count == 6)

        await app.server.setUp(true)
        #expect(await sdk.syncPendingTransactions() == 0)
        #expect(await app.server.posts.count == 6)
        #expect(await app.store.unfinished.isEmpty)
        await sdk.stop()
    }
}

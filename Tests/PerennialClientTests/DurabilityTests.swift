import Foundation
import Testing
@testable import PerennialClient

@Suite struct DurabilityTests {
    @Test func aPurchaseJournaledBeforeACrashIsDeliveredOnceAfterRelaunch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = SDKFixture()
        let file = FileStore(url: directory.appendingPathComponent("journal.json"))
        let paid = await app.store.addUnfinished(productID: "pro.monthly")

        // First launch: the payment went through and was journaled, then the app was killed.
        let killed = app.launch(app.configuration(journalStore: file))
        _ = try await killed.uploader.record(paid, appUserID: "alice", origin: .purchase)
        #expect(await app.server.posts.isEmpty)

        // Relaunch over the same file, as another user: the store still offers the transaction too.
        app.appUserID = "bob"
        let relaunched = app.launch(app.configuration(journalStore: file))
        await relaunched.start()
        #expect(await app.server.posts == [FakeServer.Post(transactionID: paid.transactionID, appUserID: "alice")])
        #expect(await app.store.finishCount(of: paid.transactionID) == 1)
        #expect(await relaunched.pendingTransactionCount() == 0)
        await relaunched.stop()

        // A third launch has nothing left to do.
        let third = app.launch(app.configuration(journalStore: file))
        await third.start()
        #expect(await app.server.posts.count == 1)
        #expect(await app.store.finishCount(of: paid.transactionID) == 1)
        await third.stop()
    }

    @Test func anAcknowledgedButUnfinishedTransactionIsFinishedWithoutAnotherUpload() async throws {
        let app = SDKFixture()
        let paid = await app.store.addUnfinished(productID: "pro.monthly")
        var journal = PendingTransactionJournal(capacity: 10, backoff: BackoffPolicy())
        _ = journal.record(paid, appUserID: "alice", origin: .purchase, now: app.clock.now)
        _ = journal.startUploads(now: app.clock.now, limit: 1)
        _ = journal.uploadSucceeded(key: paid.journalKey, now: app.clock.now)
        try app.journal.save(try WireJSON.encoder().encode(journal.snapshot))

        let sdk = app.launch()
        await sdk.start()
        #expect(await app.store.finishCount(of: paid.transactionID) == 1)
        #expect(await app.server.posts.isEmpty)
        await sdk.stop()
    }

    @Test func anUnreadableJournalStartsEmptyAndTheStoreRedeliversWhatMatters() async throws {
        let app = SDKFixture()
        try app.journal.save(Data("not json".utf8))
        let paid = await app.store.addUnfinished(productID: "pro.monthly")
        let sdk = app.launch()
        await sdk.start()
        #expect(await app.server.postCount(of: paid.transactionID) == 1)
        #expect(await app.store.finishCount(of: paid.transactionID) == 1)
        await sdk.stop()
    }

    @Test func theFileStoreSurvivesANewInstance() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-\(UUID())/nested/journal.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        #expect(try FileStore(url: url).load() == nil)
        try FileStore(url: url).save(Data("one".utf8))
        try FileStore(url: url).save(Data("two".utf8))
        #expect(try FileStore(url: url).load() == Data("two".utf8))
    }
}

import Foundation
import Testing
@testable import PerennialClient

@Suite struct PendingTransactionJournalTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let backoff = BackoffPolicy(initialDelay: 2, multiplier: 2, maximumDelay: 60)

    func transaction(_ id: String, product: String = "pro.monthly", revoked: Bool = false) -> StoreTransaction {
        try! StoreTransaction(signedTransaction: FakeJWS.make(transactionID: id, productID: product, revoked: revoked))
    }

    @Test func anEntryIsInFlightAtMostOnceAtATime() {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        #expect(journal.record(transaction("1"), appUserID: "alice", origin: .storeUpdate, now: t0) == .recorded)
        #expect(journal.startUploads(now: t0, limit: 4).map(\.[0].key) == ["1"])
        #expect(journal.startUploads(now: t0, limit: 4).isEmpty)
        #expect(journal.record(transaction("1"), appUserID: "alice", origin: .purchase, now: t0) == .alreadyPending)
    }

    @Test func theLimitCountsEveryUploadInFlight() {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        for id in 1...5 { _ = journal.record(transaction("\(id)"), appUserID: "a", origin: .storeUpdate, now: t0) }
        #expect(journal.startUploads(now: t0, limit: 3).count == 3)
        #expect(journal.startUploads(now: t0, limit: 3).isEmpty)
        journal.uploadFailed(key: "1", reason: "down", now: t0)
        #expect(journal.startUploads(now: t0, limit: 3).map(\.[0].key) == ["4"])
    }

    @Test func purchasesGoFirstThenOldestFirst() {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        _ = journal.record(transaction("old"), appUserID: "a", origin: .storeUpdate, now: t0)
        _ = journal.record(transaction("new"), appUserID: "a", origin: .storeUpdate, now: t0 + 1)
        _ = journal.record(transaction("paid"), appUserID: "a", origin: .purchase, now: t0 + 2)
        #expect(journal.startUploads(now: t0 + 3, limit: 3).map(\.[0].key) == ["paid", "old", "new"])
    }

    @Test(arguments: [(1, 2.0), (2, 4.0), (3, 8.0), (5, 32.0), (6, 60.0), (40, 60.0)])
    func backoffDoublesUpToItsMaximum(failures: Int, delay: TimeInterval) {
        #expect(backoff.delay(afterFailures: failures) == delay)
    }

    @Test func aFailedEntryWaitsForItsBackoff() {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        _ = journal.record(transaction("1"), appUserID: "a", origin: .storeUpdate, now: t0)
        _ = journal.startUploads(now: t0, limit: 1)
        #expect(journal.uploadFailed(key: "1", reason: "down", now: t0) == t0 + 2)
        #expect(journal.startUploads(now: t0 + 1, limit: 1).isEmpty)
        #expect(journal.nextAttemptDate(now: t0 + 1) == t0 + 2)
        _ = journal.startUploads(now: t0 + 2, limit: 1)
        #expect(journal.uploadFailed(key: "1", reason: "down", now: t0 + 2) == t0 + 6)
        #expect(journal.entries["1"]?.failures == 2)
        #expect(journal.entries["1"]?.lastError == "down")
        #expect(journal.startUploads(now: t0 + 5, limit: 1, urgent: ["1"]).map(\.[0].key) == ["1"])
    }

    @Test func aClockSetBackDoesNotStrandAnEntry() {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        _ = journal.record(transaction("1"), appUserID: "a", origin: .storeUpdate, now: t0)
        _ = journal.startUploads(now: t0, limit: 1)
        journal.uploadFailed(key: "1", reason: "down", now: t0)
        let yearEarlier = t0 - 365 * 86_400
        #expect(journal.startUploads(now: yearEarlier, limit: 1).map(\.[0].key) == ["1"])
    }

    @Test func acknowledgedThenFinishedIsForgottenAndRemembered() {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        _ = journal.record(transaction("1"), appUserID: "a", origin: .purchase, now: t0)
        _ = journal.startUploads(now: t0, limit: 1)
        #expect(journal.uploadSucceeded(key: "1", now: t0) == .finish(transactionID: "1"))
        #expect(journal.awaitingFinish.map(\.key) == ["1"])
        #expect(journal.undeliveredCount == 0)
        #expect(journal.startUploads(now: t0, limit: 1).isEmpty)
        journal.finished(key: "1")
        #expect(journal.entries.isEmpty)
        #expect(journal.record(transaction("1"), appUserID: "a", origin: .storeUpdate, now: t0) == .alreadyDelivered)
        #expect(journal.record(transaction("1"), appUserID: "bob", origin: .restore, now: t0) == .recorded)
    }

    @Test func aRestoredTransactionIsNeverFinishedAgain() {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        _ = journal.record(transaction("1"), appUserID: "a", origin: .restore, now: t0)
        _ = journal.startUploads(now: t0, limit: 1)
        #expect(journal.uploadSucceeded(key: "1", now: t0) == .forget)
        #expect(journal.entries.isEmpty)
    }

    @Test func aRefundOfADeliveredTransactionIsStillRecorded() {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        _ = journal.record(transaction("1"), appUserID: "a", origin: .purchase, now: t0)
        _ = journal.startUploads(now: t0, limit: 1)
        _ = journal.uploadSucceeded(key: "1", now: t0)
        journal.finished(key: "1")
        #expect(journal.record(transaction("1", revoked: true), appUserID: "a", origin: .storeUpdate, now: t0) == .recorded)
        #expect(journal.entries["1#revoked"] != nil)
    }

    @Test func aFullJournalRefusesStoreUpdatesButNeverAPurchase() {
        var journal = PendingTransactionJournal(capacity: 2, backoff: backoff)
        _ = journal.record(transaction("1"), appUserID: "a", origin: .storeUpdate, now: t0)
        _ = journal.record(transaction("2"), appUserID: "a", origin: .storeUpdate, now: t0)
        #expect(journal.record(transaction("3"), appUserID: "a", origin: .storeUpdate, now: t0) == .refused(capacity: 2))
        #expect(journal.record(transaction("4"), appUserID: "a", origin: .restore, now: t0) == .refused(capacity: 2))
        #expect(journal.record(transaction("5"), appUserID: "a", origin: .purchase, now: t0) == .recorded)
        #expect(Set(journal.entries.keys) == ["1", "2", "5"])
    }

    @Test func aFullJournalEvictsAcknowledgedEntriesFirst() {
        var journal = PendingTransactionJournal(capacity: 2, backoff: backoff)
        _ = journal.record(transaction("1"), appUserID: "a", origin: .storeUpdate, now: t0)
        _ = journal.record(transaction("2"), appUserID: "a", origin: .storeUpdate, now: t0)
        _ = journal.startUploads(now: t0, limit: 1)
        _ = journal.uploadSucceeded(key: "1", now: t0)
        #expect(journal.record(transaction("3"), appUserID: "a", origin: .storeUpdate, now: t0) == .recorded)
        #expect(Set(journal.entries.keys) == ["2", "3"])
    }

    @Test func aRestartMakesInFlightEntriesPendingAgain() throws {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        _ = journal.record(transaction("1"), appUserID: "alice", origin: .purchase, now: t0)
        _ = journal.startUploads(now: t0, limit: 1)
        let data = try WireJSON.encoder().encode(journal.snapshot)
        var restarted = PendingTransactionJournal(
            snapshot: try WireJSON.decoder().decode(JournalSnapshot.self, from: data), capacity: 10, backoff: backoff)
        let again = restarted.startUploads(now: t0, limit: 1).flatMap { $0 }
        #expect(again.map(\.key) == ["1"])
        #expect(again.first?.appUserID == "alice")
        #expect(again.first?.origin == .purchase)
    }

    @Test func theDeliveredMemoryIsBounded() {
        var journal = PendingTransactionJournal(capacity: 10, backoff: backoff)
        for id in 0...PendingTransactionJournal.deliveredMemory { journal.finished(key: "\(id)") }
        #expect(journal.snapshot.delivered.count == PendingTransactionJournal.deliveredMemory)
        #expect(journal.record(transaction("0"), appUserID: "a", origin: .storeUpdate, now: t0) == .recorded)
        #expect(journal.record(transaction("1"), appUserID: "a", origin: .storeUpdate, now: t0) == .alreadyDelivered)
    }
}

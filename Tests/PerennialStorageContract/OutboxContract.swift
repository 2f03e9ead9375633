import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/WebhookOutbox`` must have, run by each back end's test
/// target like ``StorageContract``: per-subscriber order, leases with owners and expiries,
/// dead letters, redelivery and replay.
public struct OutboxContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case onlyTheOldestEntryOfASubscriberIsClaimable
        case completionsCheckTheLeaseOwner
        case failedEntryWaitsForItsNextAttempt
        case expiredLeaseIsClaimableByAnotherOwner
        case deadLetterUnblocksTheQueueAndCanBeRedelivered
        case replayRequeuesDeliveredEntries
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage & WebhookOutbox
    let now = ContractFixture.day(10)

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage & WebhookOutbox) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .onlyTheOldestEntryOfASubscriberIsClaimable: try await onlyTheOldestEntryOfASubscriberIsClaimable(storage)
        case .completionsCheckTheLeaseOwner: try await completionsCheckTheLeaseOwner(storage)
        case .failedEntryWaitsForItsNextAttempt: try await failedEntryWaitsForItsNextAttempt(storage)
        case .expiredLeaseIsClaimableByAnotherOwner: try await expiredLeaseIsClaimableByAnotherOwner(storage)
        case .deadLetterUnblocksTheQueueAndCanBeRedelivered: try await deadLetterUnblocksTheQueueAndCanBeRedelivered(storage)
        case .replayRequeuesDeliveredEntries: try await replayRequeuesDeliveredEntries(storage)
        }
    }

    private let alice: AppUserID = "alice"
    private let bob: AppUserID = "bob"

    /// Alice buys two subscriptions, then Bob one: one `initialPurchase` event each, Alice's two
    /// in one queue.
    private func enqueueThreeEvents(_ storage: any SubscriberStorage) async throws {
        for (key, user, original) in [("k1", alice, "1000"), ("k2", alice, "2000"), ("k3", bob, "3000")] {
            let evidence = ContractFixture.evidence(
                key, by: user, EvidenceRecords(transactions: [ContractFixture.transaction(original, original: original, purchased: 0)]))
            _ = try await storage.apply(evidence, with: ContractFixture.applier(), now: now)
        }
    }

    private func originals(_ deliveries: [WebhookDelivery]) throws -> [String] {
        try deliveries.map { delivery in
            try JSONDecoder().decode(SubscriberEvent.self, from: delivery.entry.event.payload).originalTransactionID
        }
    }

    func onlyTheOldestEntryOfASubscriberIsClaimable(_ storage: any SubscriberStorage & WebhookOutbox) async throws {
        try await enqueueThreeEvents(storage)
        let first = try await storage.claimDeliveries(owner: "a", limit: 10, leaseFor: 60, now: now)
        #expect(try originals(first) == ["1000", "3000"])
        #expect(first.allSatisfy { $0.leaseOwner == "a" && $0.leaseExpiresAt == now.addingTimeInterval(60) && $0.state == .pending })
        // Leased entries are not claimable, and Alice's second waits behind her first.
        #expect(try await storage.claimDeliveries(owner: "b", limit: 10, leaseFor: 60, now: now).isEmpty)
        #expect(try await storage.markDelivered(id: first[0].entry.id, owner: "a", at: now))
        let second = try await storage.claimDeliveries(owner: "b", limit: 10, leaseFor: 60, now: now)
        #expect(try originals(second) == ["2000"])
        #expect(try await storage.listDeliveries(state: .delivered, limit: 10).map(\.entry.id) == [first[0].entry.id])
        #expect(try await storage.listDeliveries(state: .pending, limit: 10).count == 2)
    }

    func completionsCheckTheLeaseOwner(_ storage: any SubscriberStorage & WebhookOutbox) async throws {
        try await enqueueThreeEvents(storage)
        let claimed = try #require(try await storage.claimDeliveries(owner: "a", limit: 1, leaseFor: 60, now: now).first)
        let id = claimed.entry.id
        #expect(try await !storage.markDelivered(id: id, owner: "b", at: now))
        #expect(try await !storage.markFailed(id: id, owner: "b", attempts: 1, nextAttemptAt: now, error: "x", acceptedEndpoints: []))
        #expect(try await !storage.deadLetter(id: id, owner: "b", attempts: 1, error: "x", acceptedEndpoints: [], at: now))
        #expect(try await storage.listDeliveries(state: .pending, limit: 10).first { $0.entry.id == id }?.leaseOwner == "a")
        #expect(try await storage.markDelivered(id: id, owner: "a", at: now))
        let delivered = try #require(try await storage.listDeliveries(state: .delivered, limit: 10).first)
        #expect(delivered.entry.deliveredAt == now && delivered.entry.attempts == 1 && delivered.leaseOwner == nil)
        // Completing twice changes nothing.
        #expect(try await !storage.markDelivered(id: id, owner: "a", at: now))
    }

    func failedEntryWaitsForItsNextAttempt(_ storage: any SubscriberStorage & WebhookOutbox) async throws {
        try await enqueueThreeEvents(storage)
        let claimed = try await storage.claimDeliveries(owner: "a", limit: 10, leaseFor: 60, now: now)
        let alices = try #require(claimed.first)
        let retryAt = now.addingTimeInterval(30)
        #expect(
            try await storage.markFailed(
                id: alices.entry.id, owner: "a", attempts: 1, nextAttemptAt: retryAt, error: "503 from https://a.example",
                acceptedEndpoints: ["https://b.example"]))
        #expect(try await storage.markDelivered(id: claimed[1].entry.id, owner: "a", at: now))
        // Not due yet, and Alice's second event still waits behind it.
        #expect(try await storage.claimDeliveries(owner: "a", limit: 10, leaseFor: 60, now: now).isEmpty)
        let retried = try #require(try await storage.claimDeliveries(owner: "b", limit: 10, leaseFor: 60, now: retryAt).first)
        #expect(retried.entry.id == alices.entry.id)
        #expect(retried.entry.attempts == 1 && retried.entry.nextAttemptAt == retryAt)
        #expect(retried.acceptedEndpoints == ["https://b.example"] && retried.lastError == "503 from https://a.example")
    }

    func expiredLeaseIsClaimableByAnotherOwner(_ storage: any SubscriberStorage & WebhookOutbox) async throws {
        try await enqueueThreeEvents(storage)
        let claimed = try await storage.claimDeliveries(owner: "a", limit: 10, leaseFor: 60, now: now)
        #expect(claimed.count == 2)
        #expect(try await storage.claimDeliveries(owner: "b", limit: 10, leaseFor: 60, now: now.addingTimeInterval(59)).isEmpty)
        let reclaimed = try await storage.claimDeliveries(owner: "b", limit: 10, leaseFor: 60, now: now.addingTimeInterval(60))
        #expect(reclaimed.map(\.entry.id) == claimed.map(\.entry.id))
        #expect(reclaimed.allSatisfy { $0.leaseOwner == "b" })
        // The first owner lost its lease: its late completion is refused, the new owner's counts.
        #expect(try await !storage.markDelivered(id: claimed[0].entry.id, owner: "a", at: now))
        #expect(try await storage.markDelivered(id: claimed[0].entry.id, owner: "b", at: now))
    }

    func deadLetterUnblocksTheQueueAndCanBeRedelivered(_ storage: any SubscriberStorage & WebhookOutbox) async throws {
        try await enqueueThreeEvents(storage)
        let first = try #require(try await storage.claimDeliveries(owner: "a", limit: 1, leaseFor: 60, now: now).first)
        #expect(try await storage.deadLetter(id: first.entry.id, owner: "a", attempts: 12, error: "refused", acceptedEndpoints: [], at: now))
        let dead = try await storage.listDeliveries(state: .dead, limit: 10)
        #expect(dead.map(\.entry.id) == [first.entry.id])
        #expect(dead.first?.state == .dead && dead.first?.deadAt == now && dead.first?.entry.attempts == 12)
        // Alice's next event is no longer blocked by the dead one.
        let next = try await storage.claimDeliveries(owner: "a", limit: 10, leaseFor: 60, now: now)
        #expect(try originals(next) == ["2000", "3000"])
        let later = now.addingTimeInterval(3600)
        #expect(try await storage.redeliver(id: first.entry.id, now: later))
        #expect(try await !storage.redeliver(id: first.entry.id, now: later))
        #expect(try await !storage.redeliver(id: 999_999, now: later))
        #expect(try await storage.listDeliveries(state: .dead, limit: 10).isEmpty)
        let pending = try #require(try await storage.listDeliveries(state: .pending, limit: 10).first)
        #expect(pending.entry.id == first.entry.id && pending.entry.attempts == 0 && pending.entry.nextAttemptAt == later)
        #expect(pending.acceptedEndpoints.isEmpty && pending.lastError == nil && pending.deadAt == nil)
    }

    func replayRequeuesDeliveredEntries(_ storage: any SubscriberStorage & WebhookOutbox) async throws {
        try await enqueueThreeEvents(storage)
        for _ in 0..<2 {
            for delivery in try await storage.claimDeliveries(owner: "a", limit: 10, leaseFor: 60, now: now) {
                #expect(try await storage.markDelivered(id: delivery.entry.id, owner: "a", at: now))
            }
        }
        #expect(try await storage.listDeliveries(state: .delivered, limit: 10).count == 3)
        #expect(try await storage.requeueDelivered(appBundleID: nil, appUserID: nil, since: now.addingTimeInterval(1), now: now) == 0)
        // Alice of another app is another user: her events are not this app's Alice's.
        #expect(try await storage.requeueDelivered(appBundleID: "com.example.other", appUserID: alice, since: nil, now: now) == 0)
        #expect(try await storage.requeueDelivered(appBundleID: ContractFixture.bundleID, appUserID: alice, since: nil, now: now) == 2)
        let pending = try await storage.listDeliveries(state: .pending, limit: 10)
        #expect(try originals(pending) == ["1000", "2000"])
        #expect(pending.allSatisfy { $0.entry.deliveredAt == nil && $0.entry.attempts == 0 })
        // They are delivered again in their original order.
        #expect(try originals(try await storage.claimDeliveries(owner: "a", limit: 10, leaseFor: 60, now: now)) == ["1000"])
        #expect(try await storage.requeueDelivered(appBundleID: nil, appUserID: nil, since: nil, now: now) == 1)
    }
}

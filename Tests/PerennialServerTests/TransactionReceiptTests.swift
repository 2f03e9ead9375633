import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// iOS 6 transaction receipts end to end: the simulator writes one for a purchase, the server
/// sends it to (the simulator's) verifyReceipt and applies Apple's iOS 6-style answer.
@Suite struct TransactionReceiptTests {
    @Test func anIOS6ReceiptIsAcceptedThroughVerifyReceipt() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let receipt = try TransactionReceiptAuthoring.receipt(of: transaction, pki: world.pki, configuration: StoreWorld.wire)
        let verifyReceipt = SimulatedVerifyReceipt(world: world)
        let server = try await ServerHarness(receipts: .verifyReceipt(verifyReceipt))
        server.clock.now = world.state.now.addingTimeInterval(5)
        try await server.test { client in
            let response = try await client.postReceipt(receipt, user: "alice")
            #expect(response.status == .ok)
            let answer = try response.decode(SubscriberResponse.self)
            let pro = try #require(answer.subscriber.entitlements["pro"])
            #expect(pro.isActive && pro.originalTransactionID == transaction.originalTransactionID)
            #expect(pro.expiresDate == transaction.expiresDate)
            // The top-level renewal facts of the iOS 6 answer reached the subscription.
            #expect(answer.subscriber.subscriptions.first?.willRenew == true)
        }
        #expect(verifyReceipt.requests == 1)
        #expect(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).map(\.entry.kind) == [.bound, .evidenceApplied])
    }

    /// Apple's iOS 6 answer for a purchase that is not an auto-renewable subscription carries it
    /// in `receipt` alone: the lifetime unlock is recorded (it was accepted, 200, and dropped).
    @Test func anIOS6ReceiptOfALifetimeUnlockIsRecorded() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("lifetime")
        let receipt = try TransactionReceiptAuthoring.receipt(of: transaction, pki: world.pki, configuration: StoreWorld.wire)
        let server = try await ServerHarness(receipts: .verifyReceipt(SimulatedVerifyReceipt(world: world)))
        server.clock.now = world.state.now.addingTimeInterval(5)
        try await server.test { client in
            let response = try await client.postReceipt(receipt, user: "alice")
            #expect(response.status == .ok, "\(response.text)")
            let answer = try response.decode(SubscriberResponse.self)
            #expect(answer.subscriber.entitlements["pro"]?.isActive == true, "\(response.text)")
            #expect(answer.subscriber.entitlements["pro"]?.transactionID == transaction.transactionID)
        }
        #expect(try await server.storage.purchase(ofTransaction: transaction.transactionID)?.owner == "alice")
    }

    @Test func anExpiredSubscriptionsIOS6ReceiptAnswers21006AndIsStillApplied() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let receipt = try TransactionReceiptAuthoring.receipt(of: transaction, pki: world.pki, configuration: StoreWorld.wire)
        try world.perform(.setAutoRenew(originalTransactionID: transaction.originalTransactionID, enabled: false))
        try world.perform(.advance(to: try #require(transaction.expiresDate).addingTimeInterval(3_600)))
        let server = try await ServerHarness(receipts: .verifyReceipt(SimulatedVerifyReceipt(world: world)))
        server.clock.now = world.state.now
        try await server.test { client in
            let response = try await client.postReceipt(receipt, user: "alice")
            #expect(response.status == .ok)
            let answer = try response.decode(SubscriberResponse.self)
            #expect(answer.subscriber.entitlements["pro"]?.isActive == false)
            #expect(answer.subscriber.subscriptions.first?.status == .expired)
        }
    }

    @Test func aForgedIOS6ReceiptIsRefusedAndNothingStored() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let foreign = try SimulatorPKI.generate(validFrom: StoreWorld.start.addingTimeInterval(-86_400), includesReceipts: true)
        let forged = try TransactionReceiptAuthoring.receipt(of: transaction, pki: foreign, configuration: StoreWorld.wire)
        let server = try await ServerHarness(receipts: .verifyReceipt(SimulatedVerifyReceipt(world: world)))
        try await server.test { client in
            let response = try await client.postReceipt(forged, user: "alice")
            #expect(response.status == .unprocessableContent)
            #expect(response.errorCode == "receiptRejected")
        }
        #expect(try await server.storage.evidenceCount() == 0)
    }
}

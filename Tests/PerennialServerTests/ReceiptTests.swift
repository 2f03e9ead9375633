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

@Suite struct ReceiptTests {
    @Test func aLocallyVerifiedReceiptReturnsTheEntitledSubscriber() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let receipt = try world.receipt()
        let server = try await ServerHarness(receipts: .local)
        server.clock.now = world.state.now.addingTimeInterval(5)
        try await server.test { client in
            let response = try await client.postReceipt(receipt, user: "alice")
            #expect(response.status == .ok)
            let answer = try response.decode(SubscriberResponse.self)
            #expect(answer.subscriber.entitlements["pro"]?.isActive == true)
            #expect(answer.subscriber.subscriptions.first?.originalTransactionID == transaction.originalTransactionID)
        }
        let entry = try #require(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).first)
        let evidenceID = try #require(entry.evidenceID)
        let evidence = try #require(try await server.storage.evidence(id: evidenceID))
        #expect(evidence.kind == .receipt && evidence.presentedBy == "alice")
        #expect(evidence.raw.base64EncodedString() == receipt)
    }

    @Test func aReceiptVerifiedThroughVerifyReceiptCarriesRenewalInfo() async throws {
        var world = try StoreWorld()
        _ = try world.buy("pro.monthly")
        let verifyReceipt = SimulatedVerifyReceipt(world: world)
        let receipt = try world.receipt()
        // Accepting production too, the client asks production first, as Apple recommends.
        let server = try await ServerHarness(receipts: .verifyReceipt(verifyReceipt), environments: [.production, .sandbox])
        server.clock.now = world.state.now.addingTimeInterval(5)
        try await server.test { client in
            let response = try await client.postReceipt(receipt, user: "alice")
            #expect(response.status == .ok)
            let answer = try response.decode(SubscriberResponse.self)
            #expect(answer.subscriber.entitlements["pro"]?.isActive == true)
            // pending_renewal_info came with the answer: the server knows it will renew.
            #expect(answer.subscriber.subscriptions.first?.willRenew == true)
            #expect(answer.subscriber.subscriptions.first?.renewalProductID == "pro.monthly")
        }
        // Production first, then the sandbox after Apple's 21007.
        #expect(verifyReceipt.requests == 2)
    }

    @Test func aMalformedReceiptIsRefusedBeforeAnyVerification() async throws {
        let world = try StoreWorld()
        let verifyReceipt = SimulatedVerifyReceipt(world: world)
        for receipts in [ServerHarness.Receipts.local, .verifyReceipt(verifyReceipt)] {
            let server = try await ServerHarness(receipts: receipts)
            try await server.test { client in
                for garbage in [Data("not a receipt".utf8).base64EncodedString(), "%%%not base64%%%", ""] {
                    let response = try await client.postReceipt(garbage, user: "alice")
                    #expect(response.status == .badRequest)
                    #expect(response.errorCode == "malformedReceipt")
                }
            }
            #expect(try await server.storage.evidenceCount() == 0)
        }
        #expect(verifyReceipt.requests == 0)
    }

    @Test func aReceiptOfAnotherAppIsRefused() async throws {
        var other = try StoreWorld(bundleID: "com.example.other")
        _ = try other.buy("pro.monthly")
        let receipt = try DeviceReceipt(account: StoreWorld.alice, bundleID: "com.example.other", state: other.state, pki: other.pki).base64
        let server = try await ServerHarness(receipts: .local)
        try await server.test { client in
            let response = try await client.postReceipt(receipt, user: "alice")
            #expect(response.status == .unprocessableContent)
            #expect(response.errorCode == "wrongBundleId")
        }
        #expect(try await server.storage.evidenceCount() == 0)
    }

    @Test func receiptsAreRefusedWhenNoVerificationIsConfigured() async throws {
        var world = try StoreWorld()
        _ = try world.buy("pro.monthly")
        let receipt = try world.receipt()
        let server = try await ServerHarness(receipts: .none)
        try await server.test { client in
            let response = try await client.postReceipt(receipt, user: "alice")
            #expect(response.status == .notImplemented)
            #expect(response.errorCode == "notConfigured")
        }
    }
}

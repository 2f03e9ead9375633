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

@Suite struct SignedTransactionTests {
    @Test func postingASignedTransactionReturnsTheEntitledSubscriber() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let signed = try world.signed(transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now.addingTimeInterval(10)
        try await server.test { client in
            let response = try await client.postTransaction(signed, user: "alice")
            #expect(response.status == .ok)
            let answer = try response.decode(SubscriberResponse.self)
            #expect(answer.serverTime == server.clock.now)
            #expect(answer.subscriber.appUserID == "alice")
            let pro = try #require(answer.subscriber.entitlements["pro"])
            #expect(pro.isActive && pro.productID == "pro.monthly")
            #expect(pro.originalTransactionID == transaction.originalTransactionID && pro.transactionID == transaction.transactionID)
            #expect(pro.expiresDate == transaction.expiresDate)
            #expect(answer.subscriber.entitlements["basic"]?.isActive == true)
            let subscription = try #require(answer.subscriber.subscriptions.first)
            #expect(subscription.status == .active && subscription.environment == "Sandbox" && subscription.groupID == "premium")
            #expect(answer.transfer == nil)
            // Read back: the same state, computed again at the server's clock.
            let read = try await client.subscriber("alice").decode(SubscriberResponse.self)
            #expect(read.subscriber == answer.subscriber)
        }
        let outbox = try await server.storage.pendingOutbox(limit: 10)
        #expect(outbox.map(\.event.kind) == [EventKind.initialPurchase.rawValue])
        #expect(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).map(\.entry.kind) == [.bound, .evidenceApplied])
    }

    @Test func theSubscriberIsComputedAtTheServersClockNotCached() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let signed = try world.signed(transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            // A month later with no renewal evidence, the stored records say expired.
            server.clock.now = try #require(transaction.expiresDate).addingTimeInterval(60)
            let later = try await client.subscriber("alice").decode(SubscriberResponse.self)
            #expect(later.subscriber.entitlements["pro"]?.isActive == false)
            #expect(later.subscriber.subscriptions.first?.status == .expired)
        }
    }

    @Test func aLifetimePurchaseHasANullExpiry() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("lifetime")
        let signed = try world.signed(transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            let response = try await client.postTransaction(signed, user: "alice")
            #expect(response.status == .ok)
            let object = try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
            let subscriber = try #require(object["subscriber"] as? [String: Any])
            let entitlements = try #require(subscriber["entitlements"] as? [String: Any])
            let pro = try #require(entitlements["pro"] as? [String: Any])
            #expect(pro["expiresDate"] is NSNull)
            #expect(pro["isActive"] as? Bool == true)
            let purchases = try #require(subscriber["purchases"] as? [[String: Any]])
            #expect(purchases.first?["productId"] as? String == "lifetime")
            #expect((object["serverTime"] as? String)?.hasSuffix(".000Z") == true)
        }
    }

    /// Bad evidence of every kind: a typed 4xx and nothing stored.
    enum Rejection: String, CaseIterable, CustomTestStringConvertible {
        case forgedSignature, wrongBundleID, wrongEnvironment, truncatedJSON, notAJWS

        var testDescription: String { rawValue }

        var expected: (status: Int, code: String) {
            switch self {
            case .forgedSignature: (422, "invalidSignature")
            case .wrongBundleID: (422, "wrongBundleId")
            case .wrongEnvironment: (422, "wrongEnvironment")
            case .truncatedJSON: (400, "malformedRequest")
            case .notAJWS: (422, "invalidSignature")
            }
        }

        func body() throws -> Data {
            switch self {
            case .forgedSignature:
                var world = try StoreWorld(pki: try StoreWorld.foreignPKI.get())
                return try Self.request(try world.signed(try world.buy("pro.monthly").transaction))
            case .wrongBundleID:
                var world = try StoreWorld(bundleID: "com.example.other")
                return try Self.request(try world.signed(try world.buy("pro.monthly").transaction))
            case .wrongEnvironment:
                var world = try StoreWorld(environment: .production)
                return try Self.request(try world.signed(try world.buy("pro.monthly").transaction))
            case .truncatedJSON:
                return Data(#"{"signedTransaction": "eyJhbGciOiJFUzI1NiJ9.eyJ"#.utf8)
            case .notAJWS:
                return try Self.request("not-a-jws")
            }
        }

        private static func request(_ signed: String) throws -> Data {
            try JSONEncoder().encode(SignedTransactionRequest(signedTransaction: signed))
        }
    }

    @Test(arguments: Rejection.allCases)
    func badEvidenceIsRefusedWithATypedErrorAndNothingStored(_ rejection: Rejection) async throws {
        let body = try rejection.body()
        let server = try await ServerHarness()
        try await server.test { client in
            let response = try await client.send(.post, "/v1/subscribers/alice/transactions", body: body)
            #expect(Int(response.status.code) == rejection.expected.status)
            let error = try response.decode(ErrorBody.self)
            #expect(error.error == rejection.expected.code)
            #expect(!error.message.isEmpty)
        }
        #expect(try await server.storage.evidenceCount() == 0)
        #expect(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).isEmpty)
        #expect(try await server.storage.pendingOutbox(limit: 10).isEmpty)
    }

    @Test func aRequestWithoutTheAppsKeyIsUnauthorized() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let missing = try await client.send(.get, "/v1/subscribers/alice", key: nil)
            #expect(missing.status == .unauthorized && missing.errorCode == "unauthorized")
            let wrong = try await client.send(.get, "/v1/subscribers/alice", key: "pk_test_demX")
            #expect(wrong.status == .unauthorized)
            let admin = try await client.send(.get, "/v1/subscribers/alice", key: ServerHarness.adminKey)
            #expect(admin.status == .unauthorized)
        }
    }
}

import PerennialWire
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// Two apps on one server: an app user id is each app's own, so the public key of one app reaches
/// nothing of the other's users, on every client route. The first app requires user tokens, the
/// second does not — the probe's case: another app's key and no token.
@Suite struct CrossAppTests {
    static let otherBundleID = "com.example.other"
    static let otherKey = "pk_test_other"

    static func apps(pki: SimulatorPKI) throws -> [AppConfiguration] {
        guard let authority = pki.receipts else { throw ServerHarness.NoReceiptAuthority() }
        func receipts() -> ReceiptConfiguration {
            ReceiptConfiguration(sharedSecret: "env:TEST_SHARED_SECRET", roots: [.certificates([authority.root])], mode: .local)
        }
        let demo = AppConfiguration(
            id: ServerHarness.appID, bundleID: StoreWorld.bundleID, appAppleID: 1_234_567_890, catalog: .catalog(StoreWorld.catalog),
            environments: [.sandbox], publicKeys: [SecretValue(ServerHarness.publicKey)], trustedRoots: [.certificates([pki.jws.root])],
            receipts: receipts(), userTokens: UserTokenConfiguration(hs256Secret: SecretValue(UserTokenTests.secret)))
        let other = AppConfiguration(
            id: "other", bundleID: otherBundleID, appAppleID: 1_234_567_899, catalog: .catalog(StoreWorld.catalog(bundleID: otherBundleID)),
            environments: [.sandbox], publicKeys: [SecretValue(otherKey)], trustedRoots: [.certificates([pki.jws.root])], receipts: receipts())
        return [demo, other]
    }

    @Test func anotherAppsKeyReachesNothingOfAUserOnAnyClientRoute() async throws {
        var world = try StoreWorld()
        let server = try await ServerHarness(apps: try Self.apps(pki: world.pki))
        server.clock.now = world.state.now
        let aliceToken = UserTokenTests.hs256(sub: "alice", exp: world.state.now.addingTimeInterval(3_600))
        let signed = try world.signed(try world.buy("pro.monthly").transaction)
        let receipt = try world.receipt()
        let appTransaction = try AppTransactionTests.signed()
        let foreignRequests: [(HTTPRequest.Method, String, Data?)] = [
            (.get, "/v1/subscribers/alice", nil),
            (.get, "/v1/subscribers/alice/app-account-token", nil),
            (.post, "/v1/subscribers/alice/transactions", try JSONEncoder().encode(SignedTransactionRequest(signedTransaction: signed))),
            (.post, "/v1/subscribers/alice/receipts", try JSONEncoder().encode(ReceiptRequest(receipt: receipt))),
            (.post, "/v1/subscribers/alice/app-transaction", try AppTransactionTests.body(appTransaction)),
            (.post, "/v1/subscribers/alice/eligibility", Data(#"{"productIds":["pro.monthly"]}"#.utf8)),
            (.post, "/v1/subscribers/alice/consumption", Data(#"{"consumedPercent":100}"#.utf8)),
            (.post, "/v1/subscribers/alice/offers/sign", Data(#"{"productId":"pro.monthly","offerId":"winback"}"#.utf8)),
        ]
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice", userToken: aliceToken).status == .ok)
            let before = try await client.subscriber("alice", userToken: aliceToken)
            let token = try await client.send(.get, "/v1/subscribers/alice/app-account-token", userToken: aliceToken)
            let demoToken = try token.decode(AppAccountTokenResponse.self).appAccountToken
            let evidence = try await server.storage.evidenceCount()

            for (method, path, body) in foreignRequests {
                let answer = try await client.send(method, path, key: Self.otherKey, body: body)
                // Whatever the other app answers about its own "alice", it names nothing of ours.
                #expect(!answer.text.contains(demoToken), "\(method) \(path) returned the demo app's token")
                #expect(!answer.text.contains("\"pro\""), "\(method) \(path) returned the demo app's entitlement")
                if answer.status == .ok, path.hasSuffix("alice") {
                    #expect(try answer.decode(SubscriberResponse.self).subscriber.entitlements.isEmpty)
                }
            }
            let otherToken = try await client.send(.get, "/v1/subscribers/alice/app-account-token", key: Self.otherKey)
            #expect(otherToken.status == .ok)
            #expect(try otherToken.decode(AppAccountTokenResponse.self).appAccountToken != demoToken)
            // The demo app's alice is as she was, and no foreign request stored evidence.
            let after = try await client.subscriber("alice", userToken: aliceToken)
            #expect(after.text == before.text)
            #expect(try await server.storage.evidenceCount() == evidence)
        }
    }

    /// A replay names a user with its app: with two apps, a user id alone is refused, and the
    /// other app's "alice" gets none of this app's Alice's events.
    @Test func aReplayOfAUserNamesItsApp() async throws {
        var world = try StoreWorld()
        let server = try await ServerHarness(apps: try Self.apps(pki: world.pki))
        server.clock.now = world.state.now
        let aliceToken = UserTokenTests.hs256(sub: "alice", exp: world.state.now.addingTimeInterval(3_600))
        let signed = try world.signed(try world.buy("pro.monthly").transaction)
        try await server.test { client async throws in
            #expect(try await client.postTransaction(signed, user: "alice", userToken: aliceToken).status == .ok)
        }
        let pending = try await server.storage.pendingOutbox(limit: 10)
        #expect(!pending.isEmpty)
        for delivery in try await server.storage.claimDeliveries(owner: "test", limit: 10, leaseFor: 60, now: world.state.now) {
            #expect(try await server.storage.markDelivered(id: delivery.entry.id, owner: "test", at: world.state.now))
        }
        try await server.test { client in
            let replay = "/admin/v1/webhooks/replay"
            let ambiguous = try await client.send(.post, replay, key: ServerHarness.adminKey, body: Data(#"{"appUserId":"alice"}"#.utf8))
            #expect(ambiguous.status == .badRequest && ambiguous.text.contains("name the app"))
            let other = try await client.send(.post, replay, key: ServerHarness.adminKey, body: Data(#"{"app":"other","appUserId":"alice"}"#.utf8))
            #expect(other.status == .accepted && other.text.contains(#""requeued":0"#))
            let demo = try await client.send(
                .post, replay, key: ServerHarness.adminKey, body: Data(#"{"app":"\#(ServerHarness.appID)","appUserId":"alice"}"#.utf8))
            #expect(demo.status == .accepted && demo.text.contains(#""requeued":\#(pending.count)"#))
            let unknown = try await client.send(.post, replay, key: ServerHarness.adminKey, body: Data(#"{"app":"nope"}"#.utf8))
            #expect(unknown.status == .notFound)
        }
    }
}

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

@Suite struct TransferPolicyTests {
    @Test(arguments: TransferPolicy.allCases)
    func aSecondUserPresentingTheSamePurchase(_ policy: TransferPolicy) async throws {
        try await Self.secondPresenter(policy: policy, server: try await ServerHarness(policy: policy))
    }

    /// Alice presents a purchase, then Bob presents the same one; checks both users' answers,
    /// the outbox and the audit under `policy`.
    static func secondPresenter(policy: TransferPolicy, server: ServerHarness) async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let signed = try world.signed(transaction)
        server.clock.now = world.state.now
        let answers = Box<(bob: SubscriberResponse, alice: SubscriberResponse)>()
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            let bob = try await client.postTransaction(signed, user: "bob")
            #expect(bob.status == .ok)
            answers.value = (try bob.decode(SubscriberResponse.self), try await client.subscriber("alice").decode(SubscriberResponse.self))
        }
        let (bob, alice) = try #require(answers.value)
        let decision: OwnershipChange.Decision
        switch policy {
        case .transfer:
            decision = .transferred
            #expect(bob.transfer?.previousOwner == "alice")
            #expect(bob.subscriber.entitlements["pro"]?.isActive == true)
            #expect(alice.subscriber.entitlements.isEmpty && alice.subscriber.subscriptions.isEmpty)
        case .keepWithOriginalOwner:
            decision = .kept
            #expect(bob.transfer == nil)
            #expect(bob.subscriber.entitlements.isEmpty)
            #expect(alice.subscriber.entitlements["pro"]?.isActive == true)
        }
        let told = try await server.storage.pendingOutbox(limit: 20).filter { $0.event.kind == decision.rawValue }
        #expect(Set(told.map(\.event.appUserID)) == ["alice", "bob"])
        let change = OwnershipChange(originalTransactionID: transaction.originalTransactionID, previousOwner: "alice", presenter: "bob", decision: decision)
        for user: AppUserID in ["alice", "bob"] {
            #expect(try await server.storage.timeline(of: user, appBundleID: StoreWorld.bundleID).contains { $0.entry.detail.ownershipChange == change })
        }
    }

    @Test func aStoreKit2PurchaseWithTheUsersAppAccountTokenIsBoundByApplesNotificationAlone() async throws {
        let server = try await ServerHarness()
        let world = Box<StoreWorld>()
        world.value = try StoreWorld()
        server.clock.now = StoreWorld.start
        try await server.test { client in
            let token = try await client.send(.get, "/v1/subscribers/carol/app-account-token").decode(AppAccountTokenResponse.self)
            #expect(try await client.send(.get, "/v1/subscribers/carol/app-account-token").decode(AppAccountTokenResponse.self) == token)
            var store = try #require(world.value)
            let notification = try #require(try store.buy("pro.monthly", token: UUID(uuidString: token.appAccountToken)).notifications.first)
            #expect(try await client.notifyV2(try notification.v2Body()).status == .ok)
            let carol = try await client.subscriber("carol").decode(SubscriberResponse.self)
            #expect(carol.subscriber.entitlements["pro"]?.isActive == true)
        }
    }
}

import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// A support desk moves a purchase to another user: the same ownership decision as a user
/// presenting it, forced to transfer whatever the app's policy, with the same audit entries and
/// events, and the timeline naming who moved it and why.
@Suite struct OwnershipMoveTests {
    static let dashboard = AdminKeyConfiguration(name: "dashboard", key: "sk_read_only", scope: .readOnly)

    @Test func aPurchaseMovesToAnotherUserEvenWhenTheAppKeepsPurchasesWithTheirOwner() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let signed = try world.signed(transaction)
        let server = try await ServerHarness(policy: .keepWithOriginalOwner, adminKeys: [Self.dashboard])
        server.clock.now = world.state.now.addingTimeInterval(10)
        let path = "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/\(transaction.originalTransactionID)/move"
        let toBob = Data(#"{"toAppUserId": "bob", "reason": "account merge, ticket 4411"}"#.utf8)
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            // Bob presenting it himself is refused by the app's policy…
            let presented = try await client.postTransaction(signed, user: "bob").decode(SubscriberResponse.self)
            #expect(presented.subscriber.entitlements["pro"]?.isActive != true)

            #expect(try await client.send(.post, path, key: "sk_read_only", body: toBob).status == .forbidden)
            // …an operator's move is not.
            let moved = try await client.send(.post, path, key: ServerHarness.adminKey, body: toBob)
            #expect(moved.status == .ok)
            let bob = try moved.decode(SubscriberResponse.self)
            #expect(bob.subscriber.appUserID == "bob" && bob.subscriber.entitlements["pro"]?.isActive == true)
            let alice = try await client.subscriber("alice").decode(SubscriberResponse.self)
            #expect(alice.subscriber.entitlements["pro"]?.isActive != true)

            let again = try await client.send(.post, path, key: ServerHarness.adminKey, body: toBob)
            #expect(again.status == .badRequest)
            let unknown = try await client.send(
                .post, "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/999999/move", key: ServerHarness.adminKey, body: toBob)
            #expect(unknown.status == .notFound)
        }
        let bobTimeline = try await server.storage.timeline(of: "bob", appBundleID: StoreWorld.bundleID)
        #expect(bobTimeline.contains { $0.entry.kind == .ownershipTransferred })
        #expect(bobTimeline.contains {
            $0.entry.detail.action == AdminAction(admin: "admin", action: "move", reason: "account merge, ticket 4411")
        })
        #expect(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).contains { $0.entry.kind == .ownershipTransferred })
        let transfers = try await server.storage.pendingOutbox(limit: 50).filter { $0.event.kind == OwnershipChange.Decision.transferred.rawValue }
        #expect(Set(transfers.map(\.event.appUserID)) == ["alice", "bob"])
    }
}

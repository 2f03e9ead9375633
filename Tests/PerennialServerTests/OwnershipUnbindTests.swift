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

/// A support desk unbinds a purchase from its account: the owner loses it with the audit entry and
/// event of an ownership decision naming who and why, and the next user to present it — whatever
/// the app's transfer policy — is bound to it.
@Suite struct OwnershipUnbindTests {
    static let dashboard = AdminKeyConfiguration(name: "dashboard", key: "sk_read_only", scope: .readOnly)

    @Test func anUnboundPurchaseGoesToTheNextUserWhoPresentsIt() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let signed = try world.signed(transaction)
        let server = try await ServerHarness(policy: .keepWithOriginalOwner, adminKeys: [Self.dashboard])
        server.clock.now = world.state.now.addingTimeInterval(10)
        let path = "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/\(transaction.originalTransactionID)/unbind"
        let why = Data(#"{"reason": "bought on a shared account, ticket 5120"}"#.utf8)
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            #expect(try await client.send(.post, path, key: "sk_read_only", body: why).status == .forbidden)
            #expect(try await server.storage.purchase(ofTransaction: transaction.originalTransactionID)?.owner == "alice")

            let unbound = try await client.send(.post, path, key: ServerHarness.adminKey, body: why)
            #expect(unbound.status == .ok, "\(unbound.text)")
            let alice = try unbound.decode(SubscriberResponse.self)
            #expect(alice.subscriber.appUserID == "alice" && alice.subscriber.entitlements["pro"]?.isActive != true)
            #expect(alice.subscriber.subscriptions.isEmpty)
            #expect(try await client.send(.post, path, key: ServerHarness.adminKey, body: why).status == .notFound, "nobody owns it now")

            // The app keeps purchases with their owner, but there is none: Bob is bound to it.
            let bob = try await client.postTransaction(signed, user: "bob").decode(SubscriberResponse.self)
            #expect(bob.subscriber.entitlements["pro"]?.isActive == true && bob.transfer == nil)
        }
        let entry = try #require(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).last { $0.entry.kind == .ownershipReleased })
        #expect(entry.entry.detail.action == AdminAction(admin: "admin", action: "unbind", reason: "bought on a shared account, ticket 5120"))
        let kinds = try await server.storage.pendingOutbox(limit: 50).filter { $0.event.appUserID == "alice" }.map(\.event.kind)
        #expect(kinds.contains("ownershipReleased"))
        #expect(try await server.storage.timeline(of: "bob", appBundleID: StoreWorld.bundleID).contains { $0.entry.kind == .bound })
    }

    /// A renewal's transaction id, pasted from a receipt or the timeline, is answered with the
    /// purchase it belongs to (it was "no purchase bound to a user", though one was).
    @Test func aRenewalsIdNamesItsPurchase() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let signed = try world.signed(transaction)
        let expiry = try #require(transaction.expiresDate)
        let renewals = try world.perform(.advance(to: expiry.addingTimeInterval(1))).notifications
        let renewal = try #require(renewals.first { $0.payload.notificationType == .didRenew })
        let signedRenewal = try #require(renewal.payload.data?.signedTransactionInfo)
        let decoded = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: JWSDecoding.decodeUnverified(signedRenewal).payload)
        let renewalID = try #require(decoded.transactionId)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            #expect(try await client.notifyV2(try renewal.v2Body()).status == .ok)
            let path = "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/\(renewalID)/unbind"
            let refused = try await client.send(.post, path, key: ServerHarness.adminKey, body: Data("{}".utf8))
            #expect(refused.status == .notFound)
            #expect(refused.text.contains("\(renewalID) is a transaction of purchase \(transaction.originalTransactionID)"), "\(refused.text)")
        }
    }
}

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

/// Apple refunded a purchase but its REFUND notification never came: support fetches the refund
/// history through the App Store Server API and the subscriber loses access, with the timeline
/// naming who asked and why.
@Suite struct RefundHistoryTests {
    @Test func aRefundWhoseNotificationWasLostIsAppliedFromTheRefundHistory() async throws {
        let clock = TestClock(StoreWorld.start)
        let apple = try SimulatedApple(store: SimulatedStore(world: try StoreWorld(environment: .production)), clock: clock)
        let server = try await ServerHarness(apps: [try apple.productionApp()], transport: apple)
        let (signed, _) = try await apple.store.buy("pro.monthly")
        let bought = try JSONSerialization.jsonObject(with: try JWSDecoding.unverifiedPayload(of: signed)) as? [String: Any]
        let original = try #require(bought?["originalTransactionId"] as? String)
        let path = "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/\(original)/refunds"
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").decode(SubscriberResponse.self).subscriber.entitlements["pro"]?.isActive == true)
            // A minute later (the sandbox month lasts five) Apple refunds it; the store drops its notifications, as a lost one would be.
            let later = StoreWorld.start.addingTimeInterval(60)
            _ = try await apple.store.advance(to: later)
            clock.now = later
            server.clock.now = later
            _ = try await apple.store.perform(.refund(transactionID: original, amount: .full, reason: .other))
            #expect(try await client.subscriber("alice").decode(SubscriberResponse.self).subscriber.entitlements["pro"]?.isActive == true)

            let refreshed = try await client.send(.post, path, key: ServerHarness.adminKey, body: Data(#"{"reason": "customer says refunded"}"#.utf8))
            #expect(refreshed.status == .ok)
            let answer = try refreshed.decode(SubscriberResponse.self)
            #expect(answer.subscriber.entitlements["pro"]?.isActive != true)
            #expect(answer.subscriber.subscriptions.first?.status == .revoked)
        }
        let timeline = try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID)
        #expect(timeline.contains { $0.entry.detail.action == AdminAction(admin: "admin", action: "refundHistory", reason: "customer says refunded") })
    }
}

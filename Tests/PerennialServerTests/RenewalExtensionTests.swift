import PerennialWire
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import Testing

/// Extending a subscription's renewal date through Apple, when what follows Apple's yes fails.
@Suite struct RenewalExtensionTests {
    /// Apple extended the subscription, then failed the read of its new state: the operator is
    /// told it was extended (202), not that it failed — a retry would extend it a second time and
    /// spend one of the two extensions Apple allows a year.
    @Test func anExtensionWhoseNewStateCannotBeReadIsNotReportedAsFailed() async throws {
        let clock = TestClock(StoreWorld.start)
        let apple = try SimulatedApple(store: SimulatedStore(world: try StoreWorld(environment: .production)), clock: clock)
        let server = try await ServerHarness(apps: [try apple.productionApp()], transport: apple)
        let (signed, _) = try await apple.store.buy("pro.monthly")
        try await server.test { client in
            let bought = try await client.postTransaction(signed, user: "alice").decode(SubscriberResponse.self)
            let subscription = try #require(bought.subscriber.subscriptions.first)
            let before = subscription.expiresDate
            let path = "/admin/v1/apps/\(ServerHarness.appID)/subscriptions/\(subscription.originalTransactionID)/extend"
            apple.fail(next: 1, with: AppStoreHTTPResponse(status: 500, body: Data(#"{"errorCode":5000000,"errorMessage":"An unknown error occurred."}"#.utf8)), method: .get)
            let extended = try await client.send(.post, path, key: ServerHarness.adminKey, body: Data(#"{"extendByDays": 10, "extendReasonCode": 3}"#.utf8))
            #expect(extended.status == .accepted, "\(extended.status) \(extended.text)")
            let answer = try extended.decode(ExtensionNotReadBack.self)
            #expect(answer.extended && answer.originalTransactionId == subscription.originalTransactionID)
            let newExpiry = try #require(answer.effectiveDate)
            #expect(newExpiry > before)
            #expect(answer.message.contains("Do not extend it again"))

            // Apple answers again: a refresh finds the one extension.
            let refreshed = try await client.send(
                .post, "/admin/v1/apps/\(ServerHarness.appID)/subscribers/alice/refresh", key: ServerHarness.adminKey, body: Data("{}".utf8))
            #expect(refreshed.status == .ok)
            #expect(try refreshed.decode(SubscriberResponse.self).subscriber.subscriptions.first?.expiresDate == newExpiry)
        }
    }
}

import Foundation
import HummingbirdTesting
import PerennialLiveHarness
import PerennialServer
import PerennialStorage
import Testing

/// Webhooks over HTTP: the developer's receiver is down while purchases and renewals happen, then
/// comes back; every event arrives once, in order per subscriber, with a valid signature.
@Suite("End to end: webhooks")
struct WebhookLiveTests {
    static let secret = "whsec_live_test"

    @Test func aReceiverThatWasDownGetsEveryEventInOrder() async throws {
        let recorder = WebhookRecorder(secret: Self.secret, delay: .zero)
        await recorder.setDown(true)
        try await recorder.application().test(.live) { client in
            let port = try #require(client.port)
            let hooks = try #require(URL(string: "http://127.0.0.1:\(port)/hooks"))
            let system = try await LiveSystem.start(
                reconciliation: nil, webhooks: [WebhookEndpoint(url: hooks, secret: SecretValue(Self.secret))],
                webhookDelivery: WebhookDeliveryOptions(owner: "live-test", pollInterval: .milliseconds(100)))
            try await system.stopping { try await Self.run($0, recorder: recorder) }
        }
    }

    private static func run(_ system: LiveSystem, recorder: WebhookRecorder) async throws {
        let outbox = system.storage
        let http = LiveHTTP(system: system)
        // Two subscribers buy, and both renew twice (Apple's notifications reach the server).
        for user in ["alice", "bob"] {
            try await http.account(user)
            let bought = try await http.buy(LiveCatalog.standardMonthly, account: user)
            let posted = try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: user)
            #expect(posted.status == 200, "\(posted.text)")
        }
        try await system.advance(by: 610)
        let tried = try await eventually { await recorder.refused >= 2 }
        #expect(tried, "the job never tried the receiver while it was down")
        #expect(await recorder.deliveries.isEmpty)

        // The receiver is back; the retries come due on the server's clock (before the next renewal).
        await recorder.setDown(false)
        try await system.advance(by: 120)
        let delivered = try await eventually { try await outbox.listDeliveries(state: .pending, limit: 1_000).isEmpty }
        #expect(delivered, "events still pending after the receiver came back")
        let entries = try await outbox.listDeliveries(state: .delivered, limit: 1_000).sorted { $0.entry.id < $1.entry.id }
        let deliveries = await recorder.deliveries
        #expect(entries.count >= 6, "\(entries.count) events for two purchases and four renewals")
        #expect(deliveries.map(\.eventID).sorted() == entries.map(\.entry.event.eventID).sorted(), "each event exactly once")
        #expect(deliveries.allSatisfy { $0.signatureIsValid })
        for user in ["alice", "bob"] {
            #expect(
                deliveries.filter { $0.appUserID == user }.map(\.eventID)
                    == entries.filter { $0.entry.event.appUserID.rawValue == user }.map(\.entry.event.eventID), "order of \(user)")
        }
    }
}

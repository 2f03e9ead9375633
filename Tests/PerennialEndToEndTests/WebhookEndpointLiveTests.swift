import Foundation
import HummingbirdTesting
import NIOHTTP1
import PerennialLiveHarness
import PerennialServer
import PerennialStorage
import Testing

/// A webhook endpoint managed only through the admin API, over HTTP on a live server and
/// simulator: added, sent a test event, sent purchases, filtered, paused, its secret rotated (the
/// receiver still holding the previous one keeps verifying), removed.
@Suite("End to end: webhook endpoints through the admin API")
struct WebhookEndpointLiveTests {
    static let secret = "whsec_endpoint_live_test_0001"

    @Test func anEndpointAddedThroughTheAdminAPIReceivesWhatItAsksFor() async throws {
        let recorder = WebhookRecorder(secret: Self.secret, delay: .zero)
        try await recorder.application().test(.live) { client in
            let port = try #require(client.port)
            let system = try await LiveSystem.start(
                reconciliation: nil, webhookDelivery: WebhookDeliveryOptions(owner: "endpoint-test", pollInterval: .milliseconds(100)))
            do {
                try await Self.run(system, recorder: recorder, hooks: "http://127.0.0.1:\(port)/hooks")
                await system.stop()
            } catch {
                await system.stop()
                throw error
            }
        }
    }

    private static func run(_ system: LiveSystem, recorder: WebhookRecorder, hooks: String) async throws {
        let http = LiveHTTP(system: system)
        let endpoints = "admin/v1/apps/\(system.appID)/webhooks/endpoints"
        let added = try await http.server(.POST, endpoints, body: #"{"url": "\#(hooks)", "secret": "\#(Self.secret)"}"#, bearer: system.adminKey)
        #expect(added.status == 201, "\(added.text)")
        #expect(added.json["secret"] as? String == Self.secret)
        let id = try #require((added.json["endpoint"] as? [String: Any])?["id"] as? String)
        let listed = try await http.server(.GET, endpoints, bearer: system.adminKey)
        #expect((listed.json["endpoints"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])
        #expect(!listed.text.contains(Self.secret), "a listing never shows a secret")

        let tested = try await http.server(.POST, "\(endpoints)/\(id)/test", bearer: system.adminKey)
        #expect(tested.json["delivered"] as? Bool == true && tested.json["status"] as? Int == 204, "\(tested.text)")
        #expect(await recorder.deliveries.contains { $0.eventID.hasPrefix("test_") && $0.signatureIsValid })

        try await buy(for: "alice", http)
        #expect(try await eventually { await recorder.deliveries.contains { $0.appUserID == "alice" && $0.signatureIsValid } })

        // Renewals only: Bob's purchase is done with, not sent.
        let filtered = try await http.server(.POST, "\(endpoints)/\(id)/event-types", body: #"{"eventTypes": ["renewal"]}"#, bearer: system.adminKey)
        #expect(filtered.status == 200 && filtered.json["eventTypes"] as? [String] == ["renewal"], "\(filtered.text)")
        try await buy(for: "bob", http)
        try await allDelivered(system)
        #expect(await !recorder.deliveries.contains { $0.appUserID == "bob" })
        #expect(try await http.server(.POST, "\(endpoints)/\(id)/event-types", body: #"{"eventTypes": null}"#, bearer: system.adminKey).status == 200)

        // Paused: Carol's purchase is not sent; resumed, Dave's is.
        #expect(try await http.server(.POST, "\(endpoints)/\(id)/pause", bearer: system.adminKey).json["isPaused"] as? Bool == true)
        try await buy(for: "carol", http)
        try await allDelivered(system)
        #expect(await !recorder.deliveries.contains { $0.appUserID == "carol" })
        #expect(try await http.server(.POST, "\(endpoints)/\(id)/resume", bearer: system.adminKey).json["isPaused"] as? Bool == false)

        // Rotated: the receiver still holds the previous secret and keeps verifying during the overlap.
        let rotated = try await http.server(.POST, "\(endpoints)/\(id)/rotate-secret", body: #"{"overlapSeconds": 3600}"#, bearer: system.adminKey)
        let newSecret = try #require(rotated.json["secret"] as? String)
        #expect(newSecret != Self.secret && newSecret.hasPrefix("whsec_"))
        try await buy(for: "dave", http)
        #expect(try await eventually { await recorder.deliveries.contains { $0.appUserID == "dave" && $0.signatureIsValid } })

        // Removed: nothing is sent any more, and with no endpoint left events wait.
        #expect(try await http.server(.DELETE, "\(endpoints)/\(id)", bearer: system.adminKey).status == 200)
        #expect(try await http.server(.DELETE, "\(endpoints)/\(id)", bearer: system.adminKey).status == 404)
        try await buy(for: "erin", http)
        try await Task.sleep(for: .milliseconds(500))
        let pending = try await system.storage.listDeliveries(state: .pending, limit: 100)
        #expect(pending.contains { $0.entry.event.appUserID == "erin" && $0.entry.attempts == 0 })
        #expect(await !recorder.deliveries.contains { $0.appUserID == "erin" })
    }

    private static func buy(for user: String, _ http: LiveHTTP) async throws {
        try await http.account(user)
        let bought = try await http.buy(LiveCatalog.standardMonthly, account: user)
        #expect(try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: user).status == 200)
    }

    private static func allDelivered(_ system: LiveSystem) async throws {
        let storage = system.storage
        #expect(try await eventually { try await storage.listDeliveries(state: .pending, limit: 100).isEmpty }, "events still pending")
    }
}

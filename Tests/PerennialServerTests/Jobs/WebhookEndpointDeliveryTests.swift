import Foundation
import PerennialServer
import PerennialStorage
import Testing

/// The webhook job delivers to the endpoints added through the admin API as to the file's: read at
/// every round, each sent only the event types it wants, a paused one nothing, signed with both
/// secrets while a rotation overlaps; an app without any endpoint keeps its events.
@Suite struct WebhookEndpointDeliveryTests {
    private func endpoint(
        _ id: String, _ url: String, eventTypes: [String]? = nil, paused: Bool = false, previousSecret: String? = nil, world: WebhookWorld
    ) throws -> StoredWebhookEndpoint {
        StoredWebhookEndpoint(
            id: id, appBundleID: StoreWorld.bundleID, url: try #require(URL(string: url)), secret: "whsec_\(id)_current",
            previousSecret: previousSecret, previousSecretExpiresAt: previousSecret.map { _ in Date().addingTimeInterval(3600) },
            isPaused: paused, eventTypes: eventTypes, createdAt: world.clock.now, createdBy: "ops")
    }

    @Test func eventsWaitForAnEndpointThenGoWhereTheyAreWanted() async throws {
        let world = try await WebhookWorld(endpoints: [])
        let receiver = WebhookReceiver()
        let service = WebhookDeliveryService(
            outbox: world.storage, endpoints: world.storage, apps: world.apps,
            options: WebhookDeliveryOptions(owner: "test-owner", pollInterval: .milliseconds(50)), transport: receiver, clock: world.clock)
        try await world.purchase("1001", by: "alice")

        // No endpoint anywhere: nothing is claimed, the event stays pending untouched.
        #expect(await service.deliverDue() == false)
        let waiting = try await world.storage.listDeliveries(state: .pending, limit: 10)
        #expect(waiting.count == 1 && waiting.first?.entry.attempts == 0)

        let everything = try endpoint("all", "https://hooks.example.com/all", previousSecret: "whsec_all_old", world: world)
        let renewalsOnly = try endpoint("renewals", "https://hooks.example.com/renewals", eventTypes: ["renewal"], world: world)
        let paused = try endpoint("paused", "https://hooks.example.com/paused", paused: true, world: world)
        for added in [everything, renewalsOnly, paused] { #expect(try await world.storage.addWebhookEndpoint(added)) }
        #expect(await service.deliverDue())

        let accepted = await receiver.accepted
        #expect(accepted.map(\.url.absoluteString) == ["https://hooks.example.com/all"])
        #expect(try await world.storage.listDeliveries(state: .pending, limit: 10).isEmpty)
        // Rotated: signed with the current and the previous secret, either verifies.
        let delivery = try #require(accepted.first)
        let signature = try WebhookSignature(header: try #require(delivery.signature))
        #expect(signature.macs.count == 2)
        let at = Date(timeIntervalSince1970: TimeInterval(signature.timestamp))
        try signature.verify(body: delivery.body, secret: "whsec_all_current", now: at)
        try signature.verify(body: delivery.body, secret: "whsec_all_old", now: at)
    }
}

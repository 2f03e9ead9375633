import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
@testable import PerennialServer
import PerennialSimulator
import PerennialStorage
import PerennialWire
import Testing

/// A retention rule's choice from Apple's notification to the app's next launch
/// (docs/retention-rules.md): written with the cancellation, told as `retentionRuleTriggered` to
/// webhooks and integrations, answered with the offerings while auto-renew stays off, withdrawn
/// when it is turned back on; a redelivered notification tells nothing twice.
@Suite struct RetentionRuleOfferingsTests {
    static let rules = "/admin/v1/apps/\(ServerHarness.appID)/retention-rules"

    /// Alice bought pro.monthly; then turned auto-renew off and, a minute later, on again.
    struct Story {
        var purchase: String
        var boughtAt: Date
        var off: Data
        var offAt: Date
        var on: Data
        var onAt: Date
    }

    static func story() throws -> Story {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let boughtAt = world.state.now
        let purchase = try world.signed(transaction)
        func toggle(_ enabled: Bool) throws -> (Data, Date) {
            _ = try world.perform(.advance(to: world.state.now.addingTimeInterval(60)))
            let sent = try world.perform(.setAutoRenew(originalTransactionID: transaction.originalTransactionID, enabled: enabled)).notifications
            return (try #require(sent.first { $0.payload.notificationType == .didChangeRenewalStatus }).v2Body(), world.state.now)
        }
        let (off, offAt) = try toggle(false)
        let (on, onAt) = try toggle(true)
        return Story(purchase: purchase, boughtAt: boughtAt, off: off, offAt: offAt, on: on, onAt: onAt)
    }

    static func setUp(_ client: any TestClientProtocol) async throws {
        for body in [#"{"id": "default", "products": ["pro.monthly"], "isDefault": true}"#, #"{"id": "stay", "products": ["basic.monthly"]}"#] {
            #expect(try await client.send(.post, "/admin/v1/apps/\(ServerHarness.appID)/offerings", key: ServerHarness.adminKey, body: Data(body.utf8)).status == .created)
        }
        let rule = #"""
            {"id": "keep", "name": "Keep", "trigger": "autoRenewOff", "offeringId": "stay",
             "offer": {"type": "promotional", "productId": "pro.monthly", "offerId": "stay50"}, "validForDays": 7}
            """#
        #expect(try await client.send(.post, rules, key: ServerHarness.adminKey, body: Data(rule.utf8)).status == .created)
    }

    /// Runs `body` on a server with the offerings and the rule set up and Alice's purchase posted,
    /// its clock at her purchase.
    static func afterAlicesPurchase(_ body: @escaping @Sendable (ServerHarness, any TestClientProtocol, Story) async throws -> Void) async throws {
        let story = try Self.story()
        let server = try await ServerHarness()
        server.clock.now = story.boughtAt
        try await server.test { client in
            try await Self.setUp(client)
            #expect(try await client.postTransaction(story.purchase, user: "alice").status == .ok)
            try await body(server, client, story)
        }
    }

    static func offerings(_ client: any TestClientProtocol) async throws -> OfferingsResponse {
        try await client.send(.get, "/v1/subscribers/alice/offerings").decode(OfferingsResponse.self)
    }

    @Test func theChoiceIsAnsweredWhileAutoRenewStaysOffAndToldOnce() async throws {
        try await Self.afterAlicesPurchase { server, client, story in
            #expect(try await Self.offerings(client).retention == nil)

            server.clock.now = story.offAt
            #expect(try await client.notifyV2(story.off).status == .ok)
            try await client.golden("client-offerings-retention", .get, "/v1/subscribers/alice/offerings")
            let answer = try await Self.offerings(client)
            let retention = try #require(answer.retention)
            #expect(answer.current?.id == "stay" && answer.experiment == nil)
            #expect(retention.ruleId == "keep" && retention.offeringId == "stay" && retention.offer?.offerId == "stay50")
            #expect(retention.validUntil.timeIntervalSince(story.offAt) <= 7 * 86_400 && retention.validUntil > story.offAt.addingTimeInterval(6 * 86_400))

            // The user's data-access export holds the stored choice.
            let export = try await client.send(
                .get, "/admin/v1/apps/\(ServerHarness.appID)/subscribers/alice/personal-data", key: ServerHarness.adminKey
            ).decode(PersonalDataExport.self)
            #expect(export.retentionChoice?.ruleID == "keep" && export.retentionChoice?.offer?.offerID == "stay50")

            // Apple redelivers the notification: nothing new is told.
            #expect(try await client.notifyV2(story.off).status == .ok)
            let told = try await server.storage.pendingOutbox(limit: 100).filter { $0.event.kind == RetentionRuleChoice.kind }
            #expect(told.count == 1)
            let entry = try #require(told.first)
            let body = try JSONSerialization.jsonObject(with: try WebhookBody.make(of: entry, appID: ServerHarness.appID)) as? [String: Any]
            let event = try #require(body?["event"] as? [String: Any])
            #expect(body?["type"] as? String == "retentionRuleTriggered" && body?["appUserId"] as? String == "alice")
            #expect(event["ruleID"] as? String == "keep" && event["trigger"] as? String == "autoRenewOff" && event["offeringID"] as? String == "stay")
            #expect((event["offer"] as? [String: Any])?["offerID"] as? String == "stay50" && event["validUntil"] is String)
            let cancellation = try #require(try await server.storage.pendingOutbox(limit: 100).first { $0.event.kind == "cancellation" })
            #expect(event["triggerEventID"] as? String == cancellation.event.eventID)

            // Amplitude and Mixpanel get the rule and its choice as event properties.
            let integration = try IntegrationEvent(OutboundEvent(type: entry.event.kind, appID: ServerHarness.appID, body: Data(), entry: entry))
            #expect(integration.retentionProperties == [
                "retention_rule_id": "keep", "trigger_event_id": cancellation.event.eventID, "offering_id": "stay", "offer_type": "promotional",
                "offer_id": "stay50",
            ])
            #expect(integration.productID == "pro.monthly" && integration.revenue == nil)

            // Auto-renew back on: withdrawn, and the usual offering is current again.
            server.clock.now = story.onAt
            #expect(try await client.notifyV2(story.on).status == .ok)
            let after = try await Self.offerings(client)
            #expect(after.retention == nil && after.current?.id == "default")
            #expect(try await server.storage.retentionChoice(of: "alice", appBundleID: StoreWorld.bundleID) == nil)
        }
    }

    @Test func aChoiceIsNotAnsweredOnceItsSubscriptionExpiredOrItsRuleIsDisabled() async throws {
        try await Self.afterAlicesPurchase { server, client, story in
            server.clock.now = story.offAt
            #expect(try await client.notifyV2(story.off).status == .ok)
            #expect(try await Self.offerings(client).retention != nil)

            // The sandbox month (five minutes) ends with auto-renew off: the subscription has expired,
            // and a choice answering "auto-renew off" with it, before any evidence says so.
            server.clock.now = story.offAt.addingTimeInterval(10 * 60)
            #expect(try await Self.offerings(client).retention == nil)

            server.clock.now = story.offAt.addingTimeInterval(60)
            #expect(try await Self.offerings(client).retention != nil)
            let disabled = #"{"name": "Keep", "trigger": "autoRenewOff", "offeringId": "stay", "enabled": false, "validForDays": 7}"#
            #expect(try await client.send(.put, "\(Self.rules)/keep", key: ServerHarness.adminKey, body: Data(disabled.utf8)).status == .ok)
            let answer = try await Self.offerings(client)
            #expect(answer.retention == nil && answer.current?.id == "default")
        }
    }
}

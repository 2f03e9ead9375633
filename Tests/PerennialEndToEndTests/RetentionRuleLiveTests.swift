import Foundation
import NIOHTTP1
import PerennialLiveHarness
import PerennialWire
import Testing

/// Retention rules end to end (docs/retention-rules.md): an operator adds a rule through the admin
/// API; a subscriber turns auto-renew off on the simulated App Store, whose notification reaches
/// the server; the developer's receiver gets `retentionRuleTriggered`, the app's next offerings
/// answer carries the rule's offering and offer, and turning auto-renew back on withdraws them.
@Suite("End to end: retention rules")
struct RetentionRuleLiveTests {
    static let secret = "whsec_retention_test"

    @Test func autoRenewOffChoosesTheRulesOfferForTheNextLaunchUntilItIsTurnedBackOn() async throws {
        try await LiveSystem.recordingWebhooks(secret: Self.secret, owner: "retention-rule-test") { try await Self.run($0, recorder: $1) }
    }

    private static func run(_ system: LiveSystem, recorder: WebhookRecorder) async throws {
        let http = LiveHTTP(system: system)
        let admin = "admin/v1/apps/\(system.appID)"
        let offerings = [
            #"{"id": "default", "products": ["\#(LiveCatalog.premiumMonthly)"], "isDefault": true}"#,
            #"{"id": "stay", "products": ["\#(LiveCatalog.standardMonthly)", "\#(LiveCatalog.premiumMonthly)"]}"#,
        ]
        for body in offerings {
            #expect(try await http.server(.POST, "\(admin)/offerings", body: body, bearer: system.adminKey).status == 201)
        }
        let rule = #"""
            {"id": "keep-premium", "name": "Keep premium subscribers", "trigger": "autoRenewOff", "productIds": ["\#(LiveCatalog.premiumMonthly)"],
             "offeringId": "stay", "offer": {"type": "promotional", "productId": "\#(LiveCatalog.premiumMonthly)", "offerId": "stay50"}, "validForDays": 7}
            """#
        let added = try await http.server(.POST, "\(admin)/retention-rules", body: rule, bearer: system.adminKey)
        #expect(added.status == 201, "\(added.text)")

        try await http.account("alice")
        let bought = try await http.buy(LiveCatalog.premiumMonthly, account: "alice")
        #expect(try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: "alice").status == 200)
        let subscription = try #require(bought.json["originalTransactionId"] as? String)
        #expect(try await Self.offerings(http).retention == nil)
        #expect(try await Self.offerings(http).current?.id == "default")

        // Half a minute later (a sandbox month is five), auto-renew off on the App Store: its
        // notification reaches the server, which tells the receiver.
        try await system.advance(by: 30)
        _ = try await http.action(["setAutoRenew": ["of": subscription, "enabled": false] as [String: Any]])
        let told = try await eventually { await recorder.deliveries.contains { $0.type == "retentionRuleTriggered" } }
        let types = await recorder.deliveries.map(\.type)
        #expect(told, "the receiver never got retentionRuleTriggered: \(types)")
        let triggered = await recorder.deliveries.filter { $0.type == "retentionRuleTriggered" }
        #expect(triggered.count == 1 && triggered.allSatisfy { $0.appUserID == "alice" && $0.signatureIsValid })
        #expect(await recorder.deliveries.contains { $0.type == "cancellation" })

        let next = try await Self.offerings(http)
        let retention = try #require(next.retention)
        #expect(retention.ruleId == "keep-premium" && retention.offeringId == "stay")
        #expect(retention.offer == OfferingsRetention.Offer(type: .promotional, productId: LiveCatalog.premiumMonthly, offerId: "stay50"))
        #expect(retention.validUntil > system.now)
        #expect(next.current?.id == "stay" && next.current?.products == [LiveCatalog.standardMonthly, LiveCatalog.premiumMonthly])

        // Auto-renew back on: the choice no longer applies, and the usual offering is back.
        try await system.advance(by: 30)
        _ = try await http.action(["setAutoRenew": ["of": subscription, "enabled": true] as [String: Any]])
        let withdrawn = try await eventually { try await Self.offerings(http).retention == nil }
        #expect(withdrawn, "the retention choice outlived auto-renew being turned back on")
        #expect(try await Self.offerings(http).current?.id == "default")
        #expect(await recorder.deliveries.filter { $0.type == "retentionRuleTriggered" }.count == 1)
    }

    private static func offerings(_ http: LiveHTTP) async throws -> OfferingsResponse {
        let answer = try await http.server(.GET, "v1/subscribers/alice/offerings")
        guard answer.status == 200 else { throw LiveHTTP.Failure(description: "offerings: \(answer.status) \(answer.text)") }
        return try WireJSON.decoder().decode(OfferingsResponse.self, from: Data(answer.text.utf8))
    }
}

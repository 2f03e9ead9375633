import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// The realtime answer the server composes from an operator's rules with the Retention Messaging
/// API 1.5 fields: a plan switch naming a commitment plan's billing, and an Advanced Commerce API
/// offer, each in Apple's RealtimeResponseBody and in the owner's timeline.
@Suite struct RetentionAnswerTests {
    static let switchMessage = "1f1d8c0e-5b8e-4c33-9a53-27c6c2b0e003"
    static let commerceMessage = "1f1d8c0e-5b8e-4c33-9a53-27c6c2b0e005"

    /// What the server answers Apple's realtime request about a fresh `pro.monthly` subscription of
    /// alice under `rule`, pinned in the golden file `golden` (which the wire contract checks
    /// against docs/openapi.yaml), with the exchange it wrote in her timeline.
    static func answer(under rule: RetentionPolicy.Rule, golden: String) async throws -> (body: [String: Any], exchange: RetentionExchange?) {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let purchase = try world.signed(transaction)
        let signed = try world.signedRealtimeRequest(about: transaction)
        let server = try await ServerHarness(retention: RetentionPolicy(rules: [rule]))
        server.clock.now = world.state.now
        let answered = Answered()
        try await server.test { client async throws in
            #expect(try await client.postTransaction(purchase, user: "alice").status == .ok)
            let response = try await client.golden(
                golden, .post, "/apple/retention/\(ServerHarness.appID)", key: nil, body: try JSONEncoder().encode(RealtimeRequestBody(signedPayload: signed)))
            #expect(response.status == .ok)
            await answered.keep(response.data)
        }
        let body = try #require(try JSONSerialization.jsonObject(with: await answered.body) as? [String: Any])
        let entries = try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID)
        return (body, entries.first { $0.entry.kind == .retentionMessageChosen }?.entry.detail.retention)
    }

    /// The body the server answered, kept past the test client's closure.
    actor Answered {
        private(set) var body = Data()
        func keep(_ body: Data) { self.body = body }
    }

    /// `alternateProduct.billingPlanType` (Retention Messaging API 1.5) goes to Apple as the rule
    /// names it.
    /// https://developer.apple.com/documentation/retentionmessaging/alternateproduct
    /// https://developer.apple.com/documentation/retentionmessaging/billingplantype
    @Test func aPlanSwitchCarriesItsBillingPlan() async throws {
        let rule = RetentionPolicy.Rule(
            alternateProduct: .init(messageIdentifier: Self.switchMessage, productId: "basic.monthly", billingPlanType: .monthly))
        let (body, exchange) = try await Self.answer(under: rule, golden: "apple-retention-alternate-product")
        let alternate = try #require(body["alternateProduct"] as? [String: String])
        #expect(alternate == ["messageIdentifier": Self.switchMessage, "productId": "basic.monthly", "billingPlanType": "MONTHLY"])
        #expect(exchange?.choice == "alternateProduct" && exchange?.alternateProductId == "basic.monthly")
    }

    /// `advancedCommerceInfo` is the answer's fourth choice, sent as the operator configured it.
    /// https://developer.apple.com/documentation/retentionmessaging/realtimeresponsebody
    /// https://developer.apple.com/documentation/retentionmessaging/advancedcommerceinfo
    @Test func anAdvancedCommerceOfferIsAnsweredAsConfigured() async throws {
        let data = Data(#"{"signatureInfo":{"token":"x.y.z"}}"#.utf8).base64EncodedString()
        let rule = RetentionPolicy.Rule(advancedCommerceInfo: .init(messageIdentifier: Self.commerceMessage, advancedCommerceData: data))
        let (body, exchange) = try await Self.answer(under: rule, golden: "apple-retention-advanced-commerce")
        #expect(Set(body.keys) == ["advancedCommerceInfo"])
        #expect(body["advancedCommerceInfo"] as? [String: String] == ["messageIdentifier": Self.commerceMessage, "advancedCommerceData": data])
        #expect(exchange?.choice == "advancedCommerceInfo" && exchange?.messageIdentifier == Self.commerceMessage)
    }

    /// The rule's new fields are read from the configuration file under Apple's names.
    @Test func theRuleReadsApplesNames() throws {
        let json = #"""
            {"rules": [{"alternateProduct": {"messageIdentifier": "\#(Self.switchMessage)", "productId": "basic.monthly", "billingPlanType": "BILLED_UPFRONT"}},
                       {"advancedCommerceInfo": {"messageIdentifier": "\#(Self.commerceMessage)", "advancedCommerceData": "e30="}}]}
            """#
        let policy = try JSONDecoder().decode(RetentionPolicy.self, from: Data(json.utf8))
        #expect(policy.rules[0].alternateProduct?.billingPlanType == .billedUpfront)
        #expect(policy.rules[1].advancedCommerceInfo == .init(messageIdentifier: Self.commerceMessage, advancedCommerceData: "e30="))
    }
}

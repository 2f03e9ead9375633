import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialStorage
import Testing

/// The admin API's retention rules (docs/retention-rules.md): written with a full-scope key, read
/// with any; every refusal names its reason and stores nothing.
@Suite struct RetentionRuleAdminTests {
    static let reader = AdminKeyConfiguration(name: "reader", key: "sk_read_only", scope: .readOnly)
    static let path = "/admin/v1/apps/\(ServerHarness.appID)/retention-rules"
    static let offerings = "/admin/v1/apps/\(ServerHarness.appID)/offerings"
    static let keep = #"""
        {"id": "keep", "name": "Keep monthly subscribers", "trigger": "autoRenewOff", "productIds": ["pro.monthly"], "offeringId": "stay",
         "offer": {"type": "promotional", "productId": "pro.monthly", "offerId": "stay50"}, "priority": 5, "validForDays": 7}
        """#

    static func server(rules: Int = 50) async throws -> ServerHarness {
        var limits = ServerHarness.unthrottled
        limits.maxRetentionRules = rules
        limits.maxRetentionValidDays = 30
        return try await ServerHarness(adminKeys: [reader], limits: limits)
    }

    static func addOffering(_ client: any TestClientProtocol) async throws {
        let body = #"{"id": "stay", "products": ["basic.monthly", "pro.monthly"]}"#
        #expect(try await client.send(.post, offerings, key: ServerHarness.adminKey, body: Data(body.utf8)).status == .created)
    }

    @Test func badRequestsAreRefusedAndChangeNothing() async throws {
        let server = try await Self.server(rules: 2)
        try await server.test { client in
            try await Self.addOffering(client)
            #expect(try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(Self.keep.utf8)).status == .created)
            let before = try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID)
            #expect(before.map(\.id) == ["keep"])

            #expect(try await client.send(.post, Self.path, key: "sk_read_only", body: Data(Self.keep.utf8)).status == .forbidden)
            func rule(_ fields: String) -> String {
                #"{"id": "other", "name": "Other", "trigger": "expiration", "validForDays": 7, "offeringId": "stay"\#(fields)}"#
            }
            let cases: [(String, HTTPResponse.Status, String, String)] = [
                (#"{"name": "x", "trigger": "expiration", "validForDays": 7, "offeringId": "stay"}"#, .badRequest, "invalidRetentionRuleId", "lacks the key id"),
                (#"{"id": "a b", "name": "x", "trigger": "expiration", "validForDays": 7, "offeringId": "stay"}"#, .badRequest, "invalidRetentionRuleId", "letters, digits"),
                (rule(#", "name": " ""#).replacingOccurrences(of: #""name": "Other", "#, with: ""), .badRequest, "invalidName", "1–200"),
                (rule("").replacingOccurrences(of: "expiration", with: "refund"), .badRequest, "unknownTrigger", "autoRenewOff, billingIssue, billingRetry, expiration"),
                (rule(#", "productIds": ["pro.monthly", "gold"]"#), .badRequest, "unknownProduct", "gold"),
                (rule("").replacingOccurrences(of: #", "offeringId": "stay""#, with: ""), .badRequest, "invalidAction", "an offeringId, an offer, or both"),
                (rule("").replacingOccurrences(of: #""offeringId": "stay""#, with: #""offeringId": "gone""#), .badRequest, "invalidAction", "no offering gone"),
                (rule(#", "offer": {"type": "code", "productId": "pro.monthly", "offerId": "x"}"#), .badRequest, "invalidOffer", "promotional or winBack"),
                (rule(#", "offer": {"type": "winBack", "productId": "pro.monthly", "offerId": ""}"#), .badRequest, "invalidOffer", "offer.offerId"),
                (rule(#", "offer": {"type": "winBack", "productId": "gold", "offerId": "x"}"#), .badRequest, "unknownProduct", "gold"),
                (rule(#", "offer": {"type": "winBack", "productId": "pro.monthly", "offerID": "x"}"#), .badRequest, "malformedRequest", "offerID"),
                (rule("").replacingOccurrences(of: #""validForDays": 7"#, with: #""validForDays": 0"#), .badRequest, "invalidValidity", "1–30"),
                (rule("").replacingOccurrences(of: #""validForDays": 7"#, with: #""validForDays": 31"#), .badRequest, "invalidValidity", "maxRetentionValidDays"),
                (rule(#", "enable": false"#), .badRequest, "malformedRequest", "unknown key enable"),
                (Self.keep, .conflict, "duplicateRetentionRule", "rule keep already"),
            ]
            for (body, status, code, message) in cases {
                let refused = try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(body.utf8))
                #expect(refused.status == status && refused.errorCode == code && refused.text.contains(message), "\(body) → \(refused.status) \(refused.text)")
            }
            #expect(try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID) == before)

            // The limit: a second rule fits, a third does not.
            #expect(try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(rule("").utf8)).status == .created)
            let third = try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(rule("").replacingOccurrences(of: "other", with: "third").utf8))
            #expect(third.status == .conflict && third.errorCode == "retentionRuleLimit" && third.text.contains("maxRetentionRules"), "\(third.text)")

            let replacements: [(String, String, HTTPResponse.Status, String)] = [
                ("keep", rule(""), .badRequest, "invalidRetentionRuleId"),
                ("missing", rule("").replacingOccurrences(of: #""id": "other", "#, with: ""), .notFound, "notFound"),
                ("keep", #"{"name": "Keep", "trigger": "autoRenewOff", "validForDays": 7}"#, .badRequest, "invalidAction"),
            ]
            for (id, body, status, code) in replacements {
                let refused = try await client.send(.put, "\(Self.path)/\(id)", key: ServerHarness.adminKey, body: Data(body.utf8))
                #expect(refused.status == status && refused.errorCode == code, "PUT \(id) \(body) → \(refused.status) \(refused.text)")
            }
            #expect(try await client.send(.delete, "\(Self.path)/missing", key: ServerHarness.adminKey).status == .notFound)
            #expect(try await client.send(.delete, "\(Self.path)/keep", key: "sk_read_only").status == .forbidden)
            #expect(try await client.send(.get, "\(Self.path)/missing", key: "sk_read_only").status == .notFound)
            #expect(try await client.send(.get, "/admin/v1/apps/elsewhere/retention-rules", key: ServerHarness.adminKey).status == .notFound)
            #expect(try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID).map(\.id) == ["keep", "other"])
        }
    }

    @Test func aRuleIsAddedReadDisabledAndRemoved() async throws {
        let server = try await Self.server()
        try await server.test { client in
            try await Self.addOffering(client)
            try await client.golden("admin-retention-rule-post", .post, Self.path, key: ServerHarness.adminKey, body: Data(Self.keep.utf8))
            let winBack = #"""
                {"id": "win-back", "name": "Win back", "trigger": "expiration", "offer": {"type": "winBack", "productId": "basic.monthly", "offerId": "wb1"},
                 "validForDays": 30}
                """#
            #expect(try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(winBack.utf8)).status == .created)
            try await client.golden("admin-retention-rules-list", .get, Self.path, key: "sk_read_only")
            let stored = try #require(try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID).first)
            #expect(stored.trigger == .autoRenewOff && stored.productIDs == ["pro.monthly"] && stored.offeringID == "stay" && stored.isEnabled)
            #expect(stored.offer == RetentionRuleOffer(type: .promotional, productID: "pro.monthly", offerID: "stay50"))
            #expect(stored.updatedBy == "admin" && stored.updatedAt == server.clock.now && stored.priority == 5 && stored.validForDays == 7)

            let disabled = #"{"name": "Keep monthly subscribers", "trigger": "autoRenewOff", "offeringId": "stay", "enabled": false, "validForDays": 3}"#
            let replaced = try await client.send(.put, "\(Self.path)/keep", key: ServerHarness.adminKey, body: Data(disabled.utf8))
            #expect(replaced.status == .ok, "\(replaced.text)")
            let read = try await client.send(.get, "\(Self.path)/keep", key: "sk_read_only")
            #expect(read.status == .ok && read.text.contains(#""enabled":false"#) && !read.text.contains("stay50"), "\(read.text)")
            let again = try #require(try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID).first)
            #expect(!again.isEnabled && again.offer == nil && again.productIDs.isEmpty && again.priority == 0 && again.validForDays == 3)

            let removed = try await client.send(.delete, "\(Self.path)/keep", key: ServerHarness.adminKey)
            #expect(removed.status == .ok && removed.text.contains(#""id":"keep""#))
            #expect(try await server.storage.retentionRules(appBundleID: StoreWorld.bundleID).map(\.id) == ["win-back"])
        }
    }
}

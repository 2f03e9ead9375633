import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialStorage
import PerennialWire
import Testing

/// The admin API's offerings (docs/offerings.md): written with a full-scope key, read with any;
/// every refusal names its reason and stores nothing.
@Suite struct OfferingAdminTests {
    static let reader = AdminKeyConfiguration(name: "reader", key: "sk_read_only", scope: .readOnly)
    static let path = "/admin/v1/apps/\(ServerHarness.appID)/offerings"
    static let standard = #"{"id": "default", "products": ["pro.monthly", "basic.monthly"], "isDefault": true, "metadata": {"en": {"title": "Go Pro"}}}"#

    static func limits(metadataBytes: Int) -> ServerLimits {
        var limits = ServerHarness.unthrottled
        limits.maxOfferingMetadataBytes = metadataBytes
        return limits
    }

    @Test func badRequestsAreRefusedAndChangeNothing() async throws {
        let server = try await ServerHarness(adminKeys: [Self.reader], limits: Self.limits(metadataBytes: 200))
        try await server.test { client in
            #expect(try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(Self.standard.utf8)).status == .created)
            let before = try await server.storage.offerings(appBundleID: StoreWorld.bundleID)
            #expect(before.map(\.id) == ["default"])

            #expect(try await client.send(.post, Self.path, key: "sk_read_only", body: Data(#"{"id": "x", "products": ["pro.monthly"]}"#.utf8)).status == .forbidden)
            let big = String(repeating: "a", count: 200)
            let cases: [(String, HTTPResponse.Status, String, String)] = [
                (#"{"id": "sale", "products": ["pro.monthly", "pro.yearly", "gold"]}"#, .badRequest, "unknownProduct", "pro.yearly, gold"),
                (#"{"id": "sale", "products": ["pro.monthly"], "#, .badRequest, "malformedRequest", "not valid JSON"),
                (#"{"id": "sale", "products": "pro.monthly"}"#, .badRequest, "malformedRequest", "at products of the body"),
                (#"{"id": "sale", "products": ["pro.monthly"], "metadata": {"en": {"title": "\#(big)"}}}"#, .badRequest, "metadataTooLarge", "more than the 200 allowed"),
                (#"{"id": "sale", "products": ["pro.monthly"], "isDefault": true}"#, .conflict, "defaultOfferingExists", "default offering is default"),
                (#"{"id": "default", "products": ["pro.monthly"]}"#, .conflict, "duplicateOffering", "offering default already"),
                (#"{"id": "sale", "products": []}"#, .badRequest, "invalidProducts", "at least one"),
                (#"{"id": "sale", "products": ["pro.monthly", "pro.monthly"]}"#, .badRequest, "invalidProducts", "more than once"),
                (#"{"products": ["pro.monthly"]}"#, .badRequest, "invalidOfferingId", "lacks the key id"),
                (#"{"id": "winter sale/2", "products": ["pro.monthly"]}"#, .badRequest, "invalidOfferingId", "letters, digits"),
                (#"{"id": "sale", "products": ["pro.monthly"], "metadata": {"en": "Go Pro"}}"#, .badRequest, "invalidMetadata", "metadata.en must be a JSON object"),
                (#"{"id": "sale", "products": ["pro.monthly"], "priority": "high"}"#, .badRequest, "malformedRequest", "priority"),
                (#"{"id": "sale", "products": ["pro.monthly"], "isDefalt": true}"#, .badRequest, "malformedRequest", "unknown key isDefalt"),
                (#"{"id": "sale", "products": ["pro.monthly"], "targeting": {"storefront": ["USA"]}}"#, .badRequest, "malformedRequest", "unknown key storefront"),
                (#"{"id": "sale", "products": ["pro.monthly"], "targeting": {"storefronts": ["US"]}}"#, .badRequest, "invalidTargeting", #"got \"US\""#),
                (#"{"id": "sale", "products": ["pro.monthly"], "targeting": {"storefronts": []}}"#, .badRequest, "invalidTargeting", "at least one"),
                (#"{"id": "sale", "products": ["pro.monthly"], "targeting": {"minimumAppVersion": "2.0-beta"}}"#, .badRequest, "invalidTargeting", "2.0-beta"),
                (#"{"id": "sale", "products": ["pro.monthly"], "targeting": {"minimumAppVersion": "2.10", "maximumAppVersion": "2.9"}}"#, .badRequest, "invalidTargeting", "above"),
                (#"{"id": "sale", "products": ["pro.monthly"], "targeting": {"audiences": ["churned"]}}"#, .badRequest, "invalidTargeting", "churned"),
            ]
            for (body, status, code, message) in cases {
                let refused = try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(body.utf8))
                #expect(refused.status == status && refused.errorCode == code && refused.text.contains(message), "\(body) → \(refused.status) \(refused.text)")
            }
            // The same refusals when replacing.
            let replacements: [(String, String, HTTPResponse.Status, String)] = [
                ("default", #"{"products": ["pro.monthly", "nope"]}"#, .badRequest, "unknownProduct"),
                ("default", #"{"id": "other", "products": ["pro.monthly"]}"#, .badRequest, "invalidOfferingId"),
                ("default", #"{"products": ["pro.monthly"], "metadata": {"en": {"title": "\#(big)"}}}"#, .badRequest, "metadataTooLarge"),
                ("missing", #"{"products": ["pro.monthly"]}"#, .notFound, "notFound"),
            ]
            for (id, body, status, code) in replacements {
                let refused = try await client.send(.put, "\(Self.path)/\(id)", key: ServerHarness.adminKey, body: Data(body.utf8))
                #expect(refused.status == status && refused.errorCode == code, "PUT \(id) \(body) → \(refused.status) \(refused.text)")
            }
            #expect(try await client.send(.delete, "\(Self.path)/missing", key: ServerHarness.adminKey).status == .notFound)
            #expect(try await client.send(.delete, "\(Self.path)/default", key: "sk_read_only").status == .forbidden)
            #expect(try await client.send(.get, "\(Self.path)/missing", key: "sk_read_only").status == .notFound)
            #expect(try await client.send(.get, "/admin/v1/apps/elsewhere/offerings", key: ServerHarness.adminKey).status == .notFound)
            #expect(try await server.storage.offerings(appBundleID: StoreWorld.bundleID) == before)
        }
    }

    @Test func anOfferingIsAddedReadReplacedAndRemoved() async throws {
        let server = try await ServerHarness(adminKeys: [Self.reader])
        try await server.test { client in
            let sale = #"""
                {"id": "winter-sale", "products": ["basic.monthly", "pro.monthly"], "priority": 10,
                 "metadata": {"en": {"title": "Winter sale", "badge": null, "discount": 0.5, "order": [2, 1], "show": true}, "de": {"title": "Winterangebot"}},
                 "targeting": {"storefronts": ["deu", "AUT"], "minimumAppVersion": "2.0", "maximumAppVersion": "3.1.4", "audiences": ["lapsed", "new"]}}
                """#
            try await client.golden("admin-offering-post", .post, Self.path, key: ServerHarness.adminKey, body: Data(sale.utf8))
            #expect(try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(Self.standard.utf8)).status == .created)
            try await client.golden("admin-offerings-list", .get, Self.path, key: "sk_read_only")
            let read = try await client.send(.get, "\(Self.path)/winter-sale", key: "sk_read_only")
            let offering = try read.decode(Offering.self)
            #expect(offering.targeting.storefronts == ["AUT", "DEU"])
            #expect(offering.targeting.audiences == ["new", "lapsed"])
            #expect(offering.metadata["en"] == .object([
                "title": .string("Winter sale"), "badge": .null, "discount": .number(0.5), "order": .array([.integer(2), .integer(1)]), "show": .bool(true),
            ]))

            let replaced = try await client.send(
                .put, "\(Self.path)/winter-sale", key: ServerHarness.adminKey, body: Data(#"{"products": ["pro.monthly"], "priority": 3}"#.utf8))
            #expect(replaced.status == .ok)
            let stored = try #require(try await server.storage.offerings(appBundleID: StoreWorld.bundleID).first { $0.id == "winter-sale" })
            #expect(stored.productIDs == ["pro.monthly"] && stored.priority == 3 && stored.metadata.isEmpty && stored.targeting == OfferingTargeting())
            #expect(stored.updatedBy == "admin" && stored.updatedAt == server.clock.now)

            let removed = try await client.send(.delete, "\(Self.path)/winter-sale", key: ServerHarness.adminKey)
            #expect(try removed.decode(Offering.self).id == "winter-sale")
            #expect(try await server.storage.offerings(appBundleID: StoreWorld.bundleID).map(\.id) == ["default"])
        }
    }
}

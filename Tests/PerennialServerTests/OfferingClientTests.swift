import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PerennialServer
import PerennialSimulator
import PerennialWire
import Testing

/// `GET /v1/subscribers/{appUserId}/offerings`: the app's offerings and the one chosen for this
/// user and device, the audience from the user's records at the server's clock.
@Suite struct OfferingClientTests {
    static let path = "/admin/v1/apps/\(ServerHarness.appID)/offerings"
    static let offerings = [
        #"{"id": "default", "products": ["pro.monthly", "basic.monthly"], "isDefault": true, "metadata": {"en": {"title": "Go Pro"}}}"#,
        #"{"id": "germany", "products": ["basic.monthly"], "priority": 5, "targeting": {"storefronts": ["DEU"]}}"#,
        #"{"id": "upgrade", "products": ["pro.monthly"], "priority": 10, "targeting": {"audiences": ["active"]}}"#,
        #"{"id": "new-paywall", "products": ["pro.monthly"], "priority": 7, "targeting": {"minimumAppVersion": "2.10", "audiences": ["new"]}}"#,
    ]

    @Test func theCurrentOfferingFollowsTheDeviceAndTheSubscriber() async throws {
        var world = try StoreWorld()
        let monthly = try world.signed(try world.buy("pro.monthly").transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now.addingTimeInterval(10)
        try await server.test { client in
            func current(_ user: String, _ query: String = "") async throws -> String? {
                let answer = try await client.send(.get, "/v1/subscribers/\(user)/offerings\(query)")
                #expect(answer.status == .ok, "\(answer.text)")
                let decoded = try answer.decode(OfferingsResponse.self)
                #expect(decoded.offerings.map(\.id) == ["default", "germany", "new-paywall", "upgrade"])
                return decoded.current?.id
            }
            for body in Self.offerings {
                #expect(try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(body.utf8)).status == .created)
            }
            #expect(try await current("carol") == "default")
            #expect(try await current("carol", "?storefront=deu") == "germany")
            #expect(try await current("carol", "?storefront=XYZ") == "default")
            // 2.10 is after 2.9, whatever the text says.
            #expect(try await current("carol", "?storefront=DEU&appVersion=2.10.1") == "new-paywall")
            #expect(try await current("carol", "?storefront=DEU&appVersion=2.9") == "germany")

            #expect(try await client.postTransaction(monthly, user: "alice").status == .ok)
            #expect(try await current("alice", "?storefront=DEU&appVersion=2.10.1") == "upgrade")
            try await client.golden("client-offerings", .get, "/v1/subscribers/alice/offerings?storefront=USA&appVersion=2.10")

            for query in ["?storefront=US", "?storefront=", "?appVersion=2.x", "?appVersion=v2"] {
                let refused = try await client.send(.get, "/v1/subscribers/carol/offerings\(query)")
                #expect(refused.status == .badRequest && refused.errorCode == "malformedRequest", "\(query): \(refused.text)")
            }
            #expect(try await client.send(.get, "/v1/subscribers/carol/offerings", key: nil).status == .unauthorized)
        }
    }

    @Test func withoutOfferingsTheCurrentOneIsNull() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            try await client.golden("client-offerings-none", .get, "/v1/subscribers/carol/offerings")
            let answer = try await client.send(.get, "/v1/subscribers/carol/offerings")
            #expect(answer.text.contains(#""current":null"#), "\(answer.text)")
        }
    }
}

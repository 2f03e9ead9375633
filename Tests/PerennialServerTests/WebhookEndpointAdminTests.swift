import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialServer
import PerennialStorage
import Testing

/// The admin API of webhook endpoints refuses what it cannot use with a typed error that stores
/// nothing, lets a read-only key list but not act, and never shows a secret but when it is made.
@Suite struct WebhookEndpointAdminTests {
    static let dashboard = AdminKeyConfiguration(name: "dashboard", key: "sk_read_only", scope: .readOnly)
    static let path = "/admin/v1/apps/\(ServerHarness.appID)/webhooks/endpoints"

    @Test func badRequestsAreRefusedAndStoreNothing() async throws {
        let server = try await ServerHarness(adminKeys: [Self.dashboard])
        try await server.test { client in
            let good = Data(#"{"url": "https://hooks.example.com/a"}"#.utf8)
            #expect(try await client.send(.post, Self.path, key: "sk_read_only", body: good).status == .forbidden)
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"url": "ftp://hooks.example.com/a"}"#, .badRequest, "invalidURL"),
                (#"{"url": "not a url"}"#, .badRequest, "invalidURL"),
                // Past 2,048 characters (PostgreSQL's index refused it with a 503; SQLite took it).
                (#"{"url": "https://hooks.example.com/\#(String(repeating: "a", count: 2_048))"}"#, .badRequest, "invalidURL"),
                (#"{"url": "https://hooks.example.com/a", "eventTypes": ["renewal", "renewed"]}"#, .badRequest, "invalidEventTypes"),
                (#"{"url": "https://hooks.example.com/a", "eventTypes": []}"#, .badRequest, "invalidEventTypes"),
                (#"{"url": "https://hooks.example.com/a", "secret": "short"}"#, .badRequest, "weakSecret"),
                (#"{"eventTypes": ["renewal"]}"#, .badRequest, "malformedRequest"),
            ]
            for (body, status, code) in cases {
                let refused = try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(body.utf8))
                #expect(refused.status == status && refused.errorCode == code, "\(body) → \(refused.status) \(refused.text)")
            }
            #expect(try await server.storage.webhookEndpoints(appBundleID: nil).isEmpty)

            let added = try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: good)
            #expect(added.status == .created)
            let secret = try added.decode(WebhookSecretAnswer.self).secret
            #expect(secret.hasPrefix("whsec_") && secret.count == 70, "a generated secret: whsec_ and 32 random bytes")
            let again = try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: good)
            #expect(again.status == .conflict && again.errorCode == "duplicateEndpoint")

            let listed = try await client.send(.get, Self.path, key: "sk_read_only")
            #expect(listed.status == .ok && !listed.text.contains(secret))
            let id = try #require(try await server.storage.webhookEndpoints(appBundleID: nil).first?.id)
            #expect(try await client.send(.post, "\(Self.path)/\(id)/pause", key: "sk_read_only").status == .forbidden)
            let overlap = try await client.send(
                .post, "\(Self.path)/\(id)/rotate-secret", key: ServerHarness.adminKey, body: Data(#"{"overlapSeconds": 700000}"#.utf8))
            #expect(overlap.status == .badRequest && overlap.errorCode == "invalidOverlap")
            let filter = try await client.send(
                .post, "\(Self.path)/\(id)/event-types", key: ServerHarness.adminKey, body: Data(#"{"eventTypes": ["nope"]}"#.utf8))
            #expect(filter.status == .badRequest)
            // A misspelt key is not null ("every type"): refused, the filter kept as it was.
            let misspelt = try await client.send(
                .post, "\(Self.path)/\(id)/event-types", key: ServerHarness.adminKey, body: Data(#"{"eventType": ["refund"]}"#.utf8))
            #expect(misspelt.status == .badRequest && misspelt.text.contains("the body lacks the key eventTypes"), "\(misspelt.text)")
            #expect(try await client.send(.post, "\(Self.path)/whep_unknown/pause", key: ServerHarness.adminKey).status == .notFound)
            #expect(try await client.send(.post, "/admin/v1/apps/elsewhere/webhooks/endpoints", key: ServerHarness.adminKey, body: good).status == .notFound)
        }
        let stored = try #require(try await server.storage.webhookEndpoints(appBundleID: nil).first)
        #expect(stored.eventTypes == nil && !stored.isPaused && stored.previousSecret == nil && stored.createdBy == "admin")
    }

    struct WebhookSecretAnswer: Decodable {
        let secret: String
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialStorage
import PerennialWire
import Testing

/// The admin API's experiments (docs/experiments.md): written with a full-scope key, read with any;
/// every refusal names its reason and stores nothing; only drafts change, one runs per app, and a
/// roll-out makes the winner's offering the app's default.
@Suite struct ExperimentAdminTests {
    static let reader = AdminKeyConfiguration(name: "reader", key: "sk_read_only", scope: .readOnly)
    static let path = "/admin/v1/apps/\(ServerHarness.appID)/experiments"
    static let offerings = "/admin/v1/apps/\(ServerHarness.appID)/offerings"
    static func body(_ id: String, weights: (Int, Int) = (50, 50)) -> String {
        #"{"id": "\#(id)", "name": "Test \#(id)", "variants": [{"id": "a", "offeringId": "default", "weight": \#(weights.0)}, {"id": "b", "offeringId": "pro", "weight": \#(weights.1)}]}"#
    }

    static func setUp(_ client: any TestClientProtocol) async throws {
        for body in [#"{"id": "default", "products": ["basic.monthly"], "isDefault": true}"#, #"{"id": "pro", "products": ["pro.monthly"]}"#] {
            #expect(try await client.send(.post, offerings, key: ServerHarness.adminKey, body: Data(body.utf8)).status == .created)
        }
    }

    @Test func badRequestsAreRefusedAndChangeNothing() async throws {
        var limits = ServerHarness.unthrottled
        limits.maxExperimentVariants = 3
        let server = try await ServerHarness(adminKeys: [Self.reader], limits: limits)
        try await server.test { client in
            try await Self.setUp(client)
            #expect(try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(Self.body("test").utf8)).status == .created)
            let before = try await server.storage.experiments(appBundleID: StoreWorld.bundleID)
            #expect(try await client.send(.post, Self.path, key: "sk_read_only", body: Data(Self.body("other").utf8)).status == .forbidden)
            let variant = #"{"id": "v", "offeringId": "pro", "weight": 25}"#
            let cases: [(String, HTTPResponse.Status, String, String)] = [
                (Self.body("test"), .conflict, "duplicateExperiment", "already"),
                (Self.body("x", weights: (50, 40)), .badRequest, "invalidVariants", "sum of 90"),
                (Self.body("x", weights: (100, 0)), .badRequest, "invalidVariants", "from 1"),
                (Self.body("bad id"), .badRequest, "invalidExperimentId", "letters"),
                (#"{"id": "x", "name": "x", "variants": [{"id": "a", "offeringId": "nope", "weight": 50}, {"id": "b", "offeringId": "pro", "weight": 50}]}"#, .badRequest, "unknownOffering", "nope"),
                (#"{"id": "x", "name": "x", "variants": [{"id": "a", "offeringId": "pro", "weight": 100}]}"#, .badRequest, "invalidVariants", "at least two"),
                (#"{"id": "x", "name": "x", "variants": [{"id": "a", "offeringId": "pro", "weight": 50}, {"id": "a", "offeringId": "pro", "weight": 50}]}"#, .badRequest, "invalidVariants", "more than once"),
                (#"{"id": "x", "name": "x", "variants": [\#(variant), \#(variant.replacingOccurrences(of: "\"v\"", with: "\"w\"")), \#(variant.replacingOccurrences(of: "\"v\"", with: "\"y\"")), \#(variant.replacingOccurrences(of: "\"v\"", with: "\"z\""))]}"#, .badRequest, "invalidVariants", "limits.maxExperimentVariants"),
                (#"{"id": "x", "name": "x", "variants": [{"id": "a", "offeringId": "pro", "wieght": 50}]}"#, .badRequest, "malformedRequest", "unknown key wieght"),
                (#"{"id": "x", "name": "x", "variants": [], "audiences": ["new"]}"#, .badRequest, "malformedRequest", "unknown key audiences"),
                (#"{"id": "x", "name": "x", "audience": {"audiences": ["churned"]}, "variants": [{"id": "a", "offeringId": "default", "weight": 50}, {"id": "b", "offeringId": "pro", "weight": 50}]}"#, .badRequest, "invalidTargeting", "churned"),
                (#"{"id": "x", "name": "", "variants": [{"id": "a", "offeringId": "default", "weight": 50}, {"id": "b", "offeringId": "pro", "weight": 50}]}"#, .badRequest, "invalidName", "1–200"),
            ]
            for (body, status, code, message) in cases {
                let refused = try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(body.utf8))
                #expect(refused.status == status && refused.errorCode == code && refused.text.contains(message), "\(body) → \(refused.status) \(refused.text)")
            }
            #expect(try await server.storage.experiments(appBundleID: StoreWorld.bundleID) == before)
            let missing = try await client.send(.get, "\(Self.path)/nope/results", key: "sk_read_only")
            #expect(missing.status == .notFound && missing.errorCode == "notFound")
        }
    }

    @Test func onlyDraftsChangeAndOneExperimentRuns() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            try await Self.setUp(client)
            for id in ["first", "second"] {
                #expect(try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(Self.body(id).utf8)).status == .created)
            }
            let edited = try await client.send(.put, "\(Self.path)/first", key: ServerHarness.adminKey, body: Data(Self.body("first", weights: (10, 90)).utf8))
            #expect(edited.status == .ok && edited.text.contains(#""weight":90"#), "\(edited.text)")
            #expect(try await client.send(.post, "\(Self.path)/first/start", key: ServerHarness.adminKey).status == .ok)
            let second = try await client.send(.post, "\(Self.path)/second/start", key: ServerHarness.adminKey)
            #expect(second.status == .conflict && second.errorCode == "experimentRunning" && second.text.contains("first"), "\(second.text)")
            let running = try await client.send(.put, "\(Self.path)/first", key: ServerHarness.adminKey, body: Data(Self.body("first").utf8))
            #expect(running.status == .conflict && running.errorCode == "experimentState", "\(running.text)")
            #expect(try await server.storage.experiments(appBundleID: StoreWorld.bundleID).map(\.variants.last?.weight) == [90, 50])

            #expect(try await client.send(.post, "\(Self.path)/first/stop", key: ServerHarness.adminKey).status == .ok)
            #expect(try await client.send(.post, "\(Self.path)/first/stop", key: ServerHarness.adminKey).errorCode == "experimentState")
            #expect(try await client.send(.post, "\(Self.path)/second/start", key: ServerHarness.adminKey).status == .ok)
            // A stopped experiment takes no exposures; an unknown one is not found.
            let late = try await client.send(.post, "/v1/subscribers/carol/experiments/first/exposures")
            #expect(late.status == .conflict && late.errorCode == "experimentState", "\(late.text)")
            #expect(try await client.send(.post, "/v1/subscribers/carol/experiments/nope/exposures").status == .notFound)
            #expect(try await client.send(.post, "/v1/subscribers/carol/experiments/second/exposures", key: nil).status == .unauthorized)
        }
    }

    @Test func aRollOutMakesTheWinnersOfferingTheDefault() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            try await Self.setUp(client)
            #expect(try await client.send(.post, Self.path, key: ServerHarness.adminKey, body: Data(Self.body("test").utf8)).status == .created)
            #expect(try await client.send(.post, "\(Self.path)/test/start", key: ServerHarness.adminKey).status == .ok)
            // The answers' shapes while it runs: the client's offerings and exposure, the admin results.
            try await client.golden("client-offerings-experiment", .get, "/v1/subscribers/carol/offerings")
            try await client.golden("client-experiment-exposure", .post, "/v1/subscribers/carol/experiments/test/exposures")
            try await client.golden("admin-experiment-results", .get, "\(Self.path)/test/results", key: ServerHarness.adminKey)
            let unknown = try await client.send(.post, "\(Self.path)/test/rollout", key: ServerHarness.adminKey, body: Data(#"{"winner": "c"}"#.utf8))
            #expect(unknown.status == .badRequest && unknown.errorCode == "invalidVariants")
            #expect(try await server.storage.experiments(appBundleID: StoreWorld.bundleID).first?.state == .running)

            let rolled = try await client.send(.post, "\(Self.path)/test/rollout", key: ServerHarness.adminKey, body: Data(#"{"winner": "b"}"#.utf8))
            #expect(rolled.status == .ok && rolled.text.contains(#""winner":"b""#) && rolled.text.contains(#""state":"stopped""#), "\(rolled.text)")
            let offerings = try await server.storage.offerings(appBundleID: StoreWorld.bundleID)
            #expect(offerings.filter(\.isDefault).map(\.id) == ["pro"])
            // Asked again with the same winner it changes nothing; another winner is refused.
            #expect(try await client.send(.post, "\(Self.path)/test/rollout", key: ServerHarness.adminKey, body: Data(#"{"winner": "b"}"#.utf8)).status == .ok)
            let other = try await client.send(.post, "\(Self.path)/test/rollout", key: ServerHarness.adminKey, body: Data(#"{"winner": "a"}"#.utf8))
            #expect(other.status == .conflict && other.errorCode == "experimentState", "\(other.text)")
            #expect(try await server.storage.offerings(appBundleID: StoreWorld.bundleID).filter(\.isDefault).map(\.id) == ["pro"])
            // The experiment no longer answers; the offerings' own choice does.
            let answer = try await client.send(.get, "/v1/subscribers/carol/offerings")
            let decoded = try answer.decode(OfferingsResponse.self)
            #expect(decoded.experiment == nil && decoded.offerings.first { $0.id == "pro" }?.isDefault == true, "\(answer.text)")
        }
    }
}

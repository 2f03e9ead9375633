// Golden files of the grant routes (Golden/admin-grant-*.json); regenerate with
//   PERENNIAL_UPDATE_GOLDEN=1 PERENNIAL_FIXTURES=../shared/fixtures swift test --filter Golden
import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialTestSupport
import Testing

@Suite struct GoldenGrantTests {
    /// Alice subscribes to basic; support gives her pro for a week and revokes it a minute later:
    /// the answers of both actions and the timeline that records them.
    @Test func grantAndRevokeAnswers() async throws {
        var world = try StoreWorld()
        let basic = try world.signed(try world.buy("basic.monthly").transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now.addingTimeInterval(10)
        try await server.test { client in
            _ = try await client.postTransaction(basic, user: "alice")
            let path = "/admin/v1/apps/\(ServerHarness.appID)/subscribers/alice/grants"
            let given = try await client.golden(
                "admin-grant-post", .post, path, key: ServerHarness.adminKey,
                body: Data(#"{"entitlementId": "pro", "duration": "P1W", "reason": "outage on the 3rd"}"#.utf8))
            let grantID = try #require(try given.decode(SubscriberResponse.self).subscriber.grants?.first?.grantID)
            server.clock.now = server.clock.now.addingTimeInterval(60)
            try await client.golden(
                "admin-grant-revoke", .post, "\(path)/\(grantID)/revoke", key: ServerHarness.adminKey,
                body: Data(#"{"reason": "given to the wrong account"}"#.utf8))
            // A grant's event ids derive from its random id: named by kind, like the grant id's UUID.
            let grant = EntitlementGrant(
                id: grantID, entitlementID: "pro", startsAt: .distantPast, expiresAt: .distantFuture, grantedBy: "", reason: nil)
            var normalization = GoldenNormalization.server
            normalization.patterns += EntitlementGrant.EventKind.allCases.map { (grant.eventID($0), "<\($0.rawValue) event id>") }
            let timeline = try await client.send(.get, "/admin/v1/subscribers/alice/timeline", key: ServerHarness.adminKey)
            try GoldenFiles(normalization: normalization).expect(
                timeline, request: "GET /admin/v1/subscribers/alice/timeline", named: "admin-grant-timeline")
        }
    }
}

import Foundation
import NIOHTTP1
import PerennialLiveHarness
import PerennialServer
import PerennialStorage
import Testing

/// Grants over HTTP on a live server and simulator: a subscriber of the standard plan is given
/// premium for a month by support, the app's own read sees it, it is revoked early, and the
/// developer's receiver gets both changes as signed webhooks.
@Suite("End to end: grants")
struct GrantLiveTests {
    static let secret = "whsec_grant_test"

    @Test func aGrantIsSeenByTheAppRevokedAndToldToWebhooks() async throws {
        try await LiveSystem.recordingWebhooks(secret: Self.secret, owner: "grant-test") { try await Self.run($0, recorder: $1) }
    }

    private static func run(_ system: LiveSystem, recorder: WebhookRecorder) async throws {
        let http = LiveHTTP(system: system)
        try await http.account("alice")
        let bought = try await http.buy(LiveCatalog.standardMonthly, account: "alice")
        #expect(try await http.postTransaction(try #require(bought.json["signedTransaction"] as? String), user: "alice").status == 200)
        let grants = "admin/v1/apps/\(system.appID)/subscribers/alice/grants"

        let unknown = try await http.server(.POST, grants, body: #"{"entitlementId": "gold", "duration": "P1M"}"#, bearer: system.adminKey)
        #expect(unknown.status == 422 && unknown.json["error"] as? String == "unknownEntitlement")
        #expect(try await system.storage.grants(of: "alice", appBundleID: system.bundleID).isEmpty)

        let given = try await http.server(
            .POST, grants, body: #"{"entitlementId": "premium", "duration": "P1M", "reason": "beta tester"}"#, bearer: system.adminKey)
        #expect(given.status == 201, "\(given.text)")
        #expect(given.isActive("premium") && given.productID(of: "premium") == "grant" && given.isActive("standard"))
        let grant = try #require((given.subscriber["grants"] as? [[String: Any]])?.first)
        let grantID = try #require(grant["grantId"] as? String)
        #expect(grant["grantedBy"] as? String == "admin" && grant["reason"] as? String == "beta tester")

        let read = try await http.subscriber("alice")
        #expect(read.isActive("premium") && read.isActive("standard"), "\(read.text)")

        let revoked = try await http.server(.POST, "\(grants)/\(grantID)/revoke", body: #"{"reason": "beta over"}"#, bearer: system.adminKey)
        #expect(revoked.status == 200, "\(revoked.text)")
        #expect(!revoked.isActive("premium") && revoked.isActive("standard"))
        #expect(!(try await http.subscriber("alice")).isActive("premium"))

        let outbox = system.storage
        let delivered = try await eventually { try await outbox.listDeliveries(state: .pending, limit: 100).isEmpty }
        #expect(delivered, "grant events still pending")
        let entries = try await outbox.listDeliveries(state: .delivered, limit: 100).sorted { $0.entry.id < $1.entry.id }
        let grantEvents = entries.filter { ["entitlementGranted", "grantRevoked"].contains($0.entry.event.kind) }
        #expect(grantEvents.map(\.entry.event.kind) == ["entitlementGranted", "grantRevoked"])
        let received = await recorder.deliveries
        for event in grantEvents {
            #expect(received.contains { $0.eventID == event.entry.event.eventID && $0.appUserID == "alice" && $0.signatureIsValid })
        }

        let timeline = try await http.server(.GET, "admin/v1/subscribers/alice/timeline", bearer: system.adminKey)
        let requested = (timeline.json["entries"] as? [[String: Any]] ?? []).compactMap { $0["requestedBy"] as? [String: String] }
        #expect(requested.contains(["admin": "admin", "action": "grant", "reason": "beta tester"]))
        #expect(requested.contains(["admin": "admin", "action": "revokeGrant", "reason": "beta over"]))
    }
}

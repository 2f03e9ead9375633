import Foundation
import NIOHTTP1
import PerennialAppStore
import PerennialLiveHarness
import PerennialStorage
import Testing

/// Apple's `RESCIND_CONSENT` over HTTP: the simulator, asked on its control API, plays a parent
/// withdrawing consent for Alice's use of the app and sends the signed notification with her app
/// transaction in `appData`
/// (https://developer.apple.com/documentation/appstoreservernotifications/appdata); the server
/// tells the user who posted that app transaction with a `consentRescinded` event, once.
@Suite("End to end: consent rescission")
struct ConsentRescissionLiveTests {
    @Test func theSimulatorsRescissionBecomesAConsentRescindedEvent() async throws {
        try await LiveSystem.start().stopping { system in try await Self.rescind(LiveHTTP(system: system), system: system) }
    }

    private static func rescind(_ http: LiveHTTP, system: LiveSystem) async throws {
        try await http.account("alice")
        let download = try await http.simulator(.GET, "simulator/v1/accounts/alice/app-transaction")
        let signed = try #require(download.json["signedAppTransaction"] as? String)
        let appTransactionID = try #require(
            try JSONSerialization.jsonObject(with: try JWSDecoding.unverifiedPayload(of: signed)) as? [String: Any])["appTransactionId"] as? String
        let posted = try await http.server(.POST, "v1/subscribers/u1/app-transaction", body: try LiveHTTP.encode(["signedAppTransaction": signed]))
        #expect(posted.status == 200, "\(posted.text)")

        let sent = try await http.simulator(.POST, "simulator/v1/accounts/alice/rescind-consent")
        #expect(sent.status == 200, "\(sent.text)")
        #expect(sent.json["notificationType"] as? String == "RESCIND_CONSENT")
        let signedPayload = try #require(sent.json["signedPayload"] as? String)
        let payload = try #require(try JSONSerialization.jsonObject(with: try JWSDecoding.unverifiedPayload(of: signedPayload)) as? [String: Any])
        let appData = try #require(payload["appData"] as? [String: Any])
        #expect(appData["bundleId"] as? String == system.bundleID && appData["environment"] as? String == "Sandbox")
        #expect(payload["data"] == nil)

        let unknown = try await http.simulator(.POST, "simulator/v1/accounts/nobody/rescind-consent")
        #expect(unknown.status == 404, "\(unknown.text)")

        let events = try await system.storage.pendingOutbox(limit: 100).map(\.event).filter { $0.kind == ConsentRescission.kind }
        #expect(events.map(\.appUserID.rawValue) == ["u1"])
        let rescission = try JSONDecoder().decode(ConsentRescission.self, from: try #require(events.first).payload)
        #expect(rescission.appTransactionID == appTransactionID)
        #expect(rescission.notificationUUID == sent.json["notificationUUID"] as? String)
    }
}

import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
@testable import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// A user's data-subject requests through the admin API (export, erase) and Apple's
/// `RESCIND_CONSENT` as a webhook event.
@Suite struct PrivacyTests {
    static let (deskKey, readOnlyKey) = ("sk_support_desk", "sk_read_only")
    static let desk = AdminKeyConfiguration(name: "desk", key: SecretValue(deskKey), scope: .support)
    static let dashboard = AdminKeyConfiguration(name: "dashboard", key: SecretValue(readOnlyKey), scope: .readOnly)
    static let personalData = "/admin/v1/apps/\(ServerHarness.appID)/subscribers/alice/personal-data"

    @Test func anExportNamesEverythingAndAnErasureLeavesNothingButApplesRecords() async throws {
        var world = try StoreWorld()
        let purchase = try world.signed(try world.buy("pro.monthly").transaction)
        let server = try await ServerHarness(adminKeys: [Self.desk, Self.dashboard])
        server.clock.now = world.state.now.addingTimeInterval(10)
        try await server.test { client in
            #expect(try await client.postTransaction(purchase, user: "alice").status == .ok)
            let grant = Data(#"{"entitlementId": "basic", "duration": "P7D", "reason": "goodwill"}"#.utf8)
            #expect(try await client.send(.post, "/admin/v1/apps/demo/subscribers/alice/grants", key: Self.deskKey, body: grant).status == .created)
            #expect(try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try AppTransactionTests.body(try AppTransactionTests.signed())).status == .ok)

            // A read-only key may not export; the support desk may.
            #expect(try await client.send(.get, Self.personalData, key: Self.readOnlyKey).status == .forbidden)
            let exported = try await client.send(.get, Self.personalData, key: Self.deskKey)
            #expect(exported.status == .ok)
            let export = try exported.decode(PersonalDataExport.self)
            #expect(export.appUserId == "alice" && export.app == ServerHarness.appID)
            #expect(export.purchases.count == 1 && export.subscriber.subscriber.entitlements["pro"]?.isActive == true)
            #expect(export.subscriber.subscriber.grants?.first?.reason == "goodwill" && export.subscriber.subscriber.originalAppPurchase != nil)
            #expect(Set(export.webhookEvents.map(\.type)).isSuperset(of: ["initialPurchase", "entitlementGranted"]))
            #expect(export.timeline.entries.contains { $0.kind == "bound" && $0.evidence != nil })

            // The erasure answers what it did; afterwards nothing is found for Alice.
            let erase = "\(Self.personalData)/erase"
            #expect(try await client.send(.post, erase, key: Self.readOnlyKey, body: Data("{}".utf8)).status == .forbidden)
            let erased = try await client.send(.post, erase, key: Self.deskKey, body: Data(#"{"reason": "ticket 42"}"#.utf8))
            #expect(erased.status == .ok)
            #expect(try erased.decode(ErasedPersonalData.self).releasedPurchases == [export.purchases[0].originalTransactionID])
            #expect(try await client.send(.get, Self.personalData, key: Self.deskKey).status == .notFound)
            #expect(try await client.send(.post, erase, key: Self.deskKey, body: Data("{}".utf8)).status == .notFound)
            let after = try await client.subscriber("alice").decode(SubscriberResponse.self).subscriber
            #expect(after.entitlements.values.allSatisfy { !$0.isActive } && after.grants == nil && after.originalAppPurchase == nil)
            let timeline = try await client.send(.get, "/admin/v1/subscribers/alice/timeline", key: ServerHarness.adminKey)
            #expect(try timeline.decode(TimelineResponse.self).entries.isEmpty)
            // Apple's purchase is still stored, owned by nobody: the next user who presents it gets it.
            let found = try await client.send(.get, "/admin/v1/purchases/\(export.purchases[0].originalTransactionID)", key: ServerHarness.adminKey)
            #expect(found.status == .ok && !found.text.contains("alice"))
            #expect(try await client.postTransaction(purchase, user: "carol").decode(SubscriberResponse.self).subscriber.entitlements["pro"]?.isActive == true)
        }
        #expect(try await server.storage.pendingOutbox(limit: 100).allSatisfy { $0.event.appUserID != "alice" })
    }

    /// Apple's `RESCIND_CONSENT` for the app transaction Alice's app posted.
    static func rescindConsent(uuid: String, pki: SimulatorPKI) throws -> Data {
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: .rescindConsent, notificationUUID: uuid, version: "2.0", signedDate: StoreWorld.start.addingTimeInterval(3_600),
            appData: NotificationAppData(bundleId: StoreWorld.bundleID, environment: .sandbox, signedAppTransactionInfo: try AppTransactionTests.signed()))
        return try JSONEncoder().encode(["signedPayload": try pki.sign(payload)])
    }

    @Test func rescindedConsentIsAWebhookEventOfEachUserOfTheAppTransactionOnce() async throws {
        let server = try await ServerHarness()
        server.clock.now = StoreWorld.start.addingTimeInterval(7_200)
        let pki = try StoreWorld.sharedPKI.get()
        try await server.test { client in
            #expect(try await client.send(.post, "/v1/subscribers/alice/app-transaction", body: try AppTransactionTests.body(try AppTransactionTests.signed())).status == .ok)
            let notification = try Self.rescindConsent(uuid: "5a1b7a39-8f3c-4c43-9d4c-2a1f0e1c0001", pki: pki)
            #expect(try await client.notifyV2(notification).status == .ok)
            #expect(try await client.notifyV2(notification).status == .ok)  // Apple's redelivery
            let timeline = try await client.send(.get, "/admin/v1/subscribers/alice/timeline", key: ServerHarness.adminKey).decode(TimelineResponse.self)
            #expect(timeline.entries.filter { $0.kind == "consentRescinded" }.count == 1)
        }
        let events = try await server.storage.pendingOutbox(limit: 10).filter { $0.event.kind == ConsentRescission.kind }
        #expect(events.map(\.event.appUserID) == ["alice"])
        let entry = try #require(events.first)
        let body = try JSONSerialization.jsonObject(with: try WebhookBody.make(of: entry, appID: ServerHarness.appID)) as? [String: Any]
        #expect(body?["type"] as? String == "consentRescinded" && body?["appUserId"] as? String == "alice")
        let event = body?["event"] as? [String: Any]
        #expect(event?["appTransactionID"] as? String == "700000000000000001" && event?["environment"] as? String == "Sandbox")
    }
}

/// The same requests from a subscriber's dashboard page: the export downloads, the erasure needs
/// the user id typed again and the support scope.
@Suite struct DashboardPrivacyTests {
    @Test func supportExportsAndErasesFromTheSubscriberPage() async throws {
        let viewer = AdminKeyConfiguration(name: "viewer", key: "sk_viewer", scope: .readOnly)
        let server = try await ServerHarness(adminKeys: [viewer])
        try await server.test { client in
            #expect(try await client.send(.get, "/v1/subscribers/alice/app-account-token").status == .ok)
            let path = "/dashboard/apps/demo/subscribers/alice"
            let admin = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let page = try await admin.get(path).text
            #expect(page.contains("<h2>Personal data</h2>") && page.contains("action=\"\(path)/personal-data/erase\""))

            let download = try await admin.get("\(path)/personal-data")
            #expect(download.status == .ok && download.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            #expect(try download.decode(PersonalDataExport.self).appAccountToken != nil)

            let viewerSession = try await DashboardClient.signIn(client, key: "sk_viewer")
            #expect(try await viewerSession.get("\(path)/personal-data").status == .forbidden)
            let notAllowed = try await viewerSession.post("\(path)/personal-data/erase", form: ["csrf": viewerSession.csrfToken, "confirm": "alice"])
            #expect(notAllowed.status == .forbidden)
            let mistyped = try await admin.post("\(path)/personal-data/erase", form: ["csrf": admin.csrfToken, "confirm": "alicia"])
            #expect(mistyped.status == .unprocessableContent && mistyped.text.contains("nothing was erased"))
            let forged = try await admin.post("\(path)/personal-data/erase", form: ["confirm": "alice"])
            #expect(forged.status == .forbidden)
            #expect(try await server.storage.personalData(of: "alice", appBundleID: StoreWorld.bundleID) != nil)

            let erased = try await admin.post("\(path)/personal-data/erase", form: ["csrf": admin.csrfToken, "confirm": "alice", "reason": "ticket 9"])
            #expect(erased.status == .ok && erased.text.contains("Personal data erased"), "\(erased.text)")
            #expect(try await server.storage.personalData(of: "alice", appBundleID: StoreWorld.bundleID) == nil)
        }
    }
}

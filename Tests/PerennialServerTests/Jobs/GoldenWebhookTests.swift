// Golden files pin webhook requests as an endpoint receives them and the admin listing of
// deliveries (Golden/*.json beside the server tests), so a change to the wire is a visible diff.
// Regenerate them (the tests then write instead of compare):
//   PERENNIAL_UPDATE_GOLDEN=1 PERENNIAL_FIXTURES=../shared/fixtures swift test --filter Golden
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialStorage
import PerennialTestSupport
import Testing

@Suite struct GoldenWebhookTests {
    /// A webhook endpoint that keeps every request whole (method, URL, every header, body).
    actor Endpoint: AppStoreHTTPTransport {
        private(set) var requests: [AppStoreHTTPRequest] = []

        func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
            requests.append(request)
            return AppStoreHTTPResponse(status: 204)
        }
    }

    /// Alice buys a subscription, then Bob presents it (the default policy moves it to him): the
    /// deliveries listed before and after the job ran, and the requests the endpoint received.
    @Test func deliveredRequestsAndTheAdminListing() async throws {
        let world = try await WebhookWorld(endpoints: [WebhookWorld.endpoints[0]])
        try await world.purchase("1001", by: "alice")
        _ = try await world.storage.apply(try Self.presentation(of: "1001", by: "bob", world: world), with: world.app.applier, now: world.clock.now)

        let application = try buildApplication(
            configuration: ServerConfiguration(port: 0, adminKey: SecretValue(ServerHarness.adminKey), apps: [try WebhookWorld.configuration()]),
            storage: world.storage, environment: ["WEBHOOK_SECRET": WebhookWorld.secret], clock: world.clock,
            webhookDelivery: nil, reconciliation: nil)
        try await application.test(.router) { client in
            _ = try await client.golden("admin-webhook-deliveries-pending", .get, "/admin/v1/webhooks/deliveries", key: ServerHarness.adminKey)
        }

        let endpoint = Endpoint()
        world.clock.now = world.clock.now.addingTimeInterval(30)
        let service = WebhookDeliveryService(
            outbox: world.storage, apps: world.apps, options: WebhookDeliveryOptions(owner: "golden-owner"), transport: endpoint,
            clock: world.clock)
        // A round sends the head of each subscriber's queue: rounds until nothing is left.
        for _ in 0..<10 {
            if !(await service.deliverDue()) { break }
        }
        let requests = await endpoint.requests
        #expect(requests.count == 4)
        for request in requests {
            // The signature is normalized in the golden file: check it here instead.
            let signature = try WebhookSignature(header: try #require(request.headers[WebhookSignature.headerName]))
            try signature.verify(
                body: request.body ?? Data(), secret: WebhookWorld.secret, now: Date(timeIntervalSince1970: TimeInterval(signature.timestamp)))
            let body = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
            let recorded: [String: Any] = [
                "method": request.method.rawValue, "url": request.url.absoluteString, "headers": request.headers, "body": body,
            ]
            // Named by event and receiver, not by arrival: subscribers' queues are served side by side.
            try GoldenFiles.server.expect(
                recorded, named: "webhook-request-\(body["type"] as? String ?? "unknown")-\(body["appUserId"] as? String ?? "unknown")")
        }

        try await application.test(.router) { client in
            _ = try await client.golden(
                "admin-webhook-deliveries-delivered", .get, "/admin/v1/webhooks/deliveries?state=delivered", key: ServerHarness.adminKey)
        }
    }

    /// `user` presents the purchase ``WebhookWorld/purchase(_:by:daysAgo:)`` recorded (the same
    /// transaction, one day old), as another device of the same Apple account would.
    static func presentation(of original: String, by user: AppUserID, world: WebhookWorld) throws -> IncomingEvidence {
        let purchased = world.clock.now.addingTimeInterval(-86_400)
        let transaction = Transaction(
            transactionID: original, originalTransactionID: original, bundleID: StoreWorld.bundleID, productID: "pro.monthly",
            productType: .autoRenewable, subscriptionGroupID: "premium", purchaseDate: purchased, originalPurchaseDate: purchased,
            expiresDate: purchased.addingTimeInterval(30 * 86_400), reason: .purchase, environment: .sandbox,
            provenance: Provenance(source: .signedTransaction, versionDate: purchased, isSigned: true))
        return IncomingEvidence(
            appBundleID: StoreWorld.bundleID, kind: .signedTransaction, idempotencyKey: "present-\(original)-\(user.rawValue)",
            raw: Data("\(original) by \(user.rawValue)".utf8), receivedAt: world.clock.now, records: EvidenceRecords(transactions: [transaction]),
            presentedBy: user, environment: .sandbox)
    }
}

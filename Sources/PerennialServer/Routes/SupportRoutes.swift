import Foundation
import Hummingbird
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// What a support desk does from what a customer has: find a purchase by a transaction id or by
/// the order id of Apple's receipt email (asking Apple through the App Store Server API and
/// applying what it answers), and check that Apple's notifications reach the server (a test
/// notification and its delivery status).
///
/// Reading needs any admin key; asking Apple for an order applies its transactions, so it needs
/// the support scope, as does requesting a test notification. Each action is logged with the
/// key's name.
struct SupportRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let reads = router.group("admin/v1").add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        let actions = router.group("admin/v1").add(middleware: dependencies.adminAuthentication(requiring: .support))
        reads.get("purchases/:transactionId") { _, context in
            guard let id = context.parameters.get("transactionId"), Self.isTransactionID(id) else {
                throw APIError.malformed("a transaction id is Apple's decimal id (the original transaction id, or any of its transactions')")
            }
            guard let found = try await lookUp(transactionID: id) else { throw APIError.notFound("no stored transaction has the id \(id)") }
            return JSONResponse.make(found)
        }
        actions.get("apps/:appId/orders/:orderId") { _, context in
            let (app, client) = try serverAPI(context)
            guard let order = context.parameters.get("orderId"), !order.isEmpty, order.allSatisfy({ $0.isLetter || $0.isNumber }) else {
                throw APIError.malformed("an order id is letters and digits, as in Apple's receipt email")
            }
            let answer = try await client.sendReturningData(.orderLookup(orderID: order))
            guard let verified = try await app.verifier.orderLookup(answer), let first = verified.records.transactions.first else {
                throw APIError.notFound("Apple knows no order \(order) of app \(app.id)")
            }
            let now = dependencies.clock.now
            _ = try await dependencies.pipeline(for: app).ingest(.appleAnswer(verified, originalTransactionID: first.originalTransactionID), now: now)
            var purchases: [PurchaseLookupResponse] = []
            for id in Set(verified.records.transactions.map(\.originalTransactionID)).sorted() {
                if let found = try await lookUp(transactionID: id) { purchases.append(found) }
            }
            dependencies.logger.info("admin action: order looked up", metadata: ["admin": "\(context.adminName)", "app": "\(app.id)", "orderId": "\(order)"])
            return JSONResponse.make(OrderLookupAnswer(orderId: order, purchases: purchases))
        }
        actions.post("apps/:appId/test-notifications") { _, context in
            let (app, client) = try serverAPI(context)
            let sent: SendTestNotificationResponse = try await client.send(.requestTestNotification)
            guard let token = sent.testNotificationToken else { throw AppStoreServerAPIError.decoding("no testNotificationToken") }
            dependencies.logger.info("admin action: test notification requested", metadata: ["admin": "\(context.adminName)", "app": "\(app.id)"])
            return JSONResponse.make(TestNotificationRequested(testNotificationToken: token), status: .accepted)
        }
        reads.get("apps/:appId/test-notifications/:token") { _, context in
            let (_, client) = try serverAPI(context)
            guard let token = context.parameters.get("token"), !token.isEmpty else { throw APIError.malformed("no test notification token") }
            let status: CheckTestNotificationResponse = try await client.send(.testNotificationStatus(token: token))
            let attempts = (status.sendAttempts ?? []).map {
                TestNotificationStatus.Attempt(attemptDate: $0.attemptDate, result: $0.sendAttemptResult?.rawValue ?? "UNKNOWN")
            }
            return JSONResponse.make(TestNotificationStatus(arrived: attempts.contains { $0.result == "SUCCESS" }, attempts: attempts))
        }
    }

    /// The purchase `transactionID` belongs to, its owner and the owner's subscriber answer now.
    private func lookUp(transactionID: String) async throws -> PurchaseLookupResponse? {
        guard let found = try await dependencies.storage.purchase(ofTransaction: transactionID) else { return nil }
        var subscriber: SubscriberResponse?
        if let owner = found.owner, let app = dependencies.apps.apps.first(where: { $0.bundleID == found.appBundleID }) {
            subscriber = try await dependencies.pipeline(for: app).answer(for: owner, now: dependencies.clock.now)
        }
        return PurchaseLookupResponse(originalTransactionId: found.originalTransactionID, appUserId: found.owner?.rawValue, subscriber: subscriber)
    }

    /// The path's app and its App Store Server API client.
    private func serverAPI(_ context: PerennialRequestContext) throws -> (AppContext, AppStoreServerAPIClient) {
        guard let id = context.parameters.get("appId"), let app = dependencies.apps.app(id: id) else {
            throw APIError.notFound("no app \(context.parameters.get("appId") ?? "") is configured")
        }
        guard let client = app.serverAPI else {
            throw EvidenceError.notConfigured("app \(app.id) has no App Store Server API key (serverAPI)")
        }
        return (app, client)
    }

    private static func isTransactionID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 32 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

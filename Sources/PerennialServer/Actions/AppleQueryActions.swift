import PerennialWire
import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// Finding the purchase a transaction id belongs to (any of its transactions' ids) in the stored
/// records: its owner and the owner's answer now. A read: any admin key.
struct LookUpPurchase: OperatorAction {
    static let scope = AdminScope.readOnly

    let transactionID: String

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> PurchaseLookupResponse {
        guard let found = try await Self.stored(transactionID, dependencies: dependencies) else {
            throw APIError.notFound("no stored transaction has the id \(transactionID)")
        }
        return found
    }

    /// The purchase transaction `id` belongs to, nil when no stored transaction has the id.
    static func stored(_ id: String, dependencies: ServerDependencies) async throws -> PurchaseLookupResponse? {
        guard let found = try await dependencies.storage.purchase(ofTransaction: id) else { return nil }
        var subscriber: SubscriberResponse?
        if let owner = found.owner, let app = dependencies.apps.apps.first(where: { $0.bundleID == found.appBundleID }) {
            subscriber = try await dependencies.pipeline(for: app).answer(for: owner, now: dependencies.clock.now)
        }
        return PurchaseLookupResponse(originalTransactionId: found.originalTransactionID, appUserId: found.owner?.rawValue, subscriber: subscriber)
    }
}

/// Looking up an order id of Apple's receipt email at Apple (Look Up Order ID), applying what Apple
/// answers, and naming the purchases it holds with their owners: what a support desk does with
/// the receipt a customer forwards.
struct LookUpOrder: OperatorAction {
    static let scope = AdminScope.support

    let orderID: String
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> OrderLookupAnswer {
        let client = try ActionTargets.serverAPIClient(of: app)
        guard ActionTargets.isOrderID(orderID) else { throw APIError.malformed("an order id is letters and digits, as in Apple's receipt email") }
        let answer = try await client.sendReturningData(.orderLookup(orderID: orderID))
        guard let verified = try await app.verifier.orderLookup(answer), let first = verified.records.transactions.first else {
            throw APIError.notFound("Apple knows no order \(orderID) of app \(app.id)")
        }
        let action = AdminAction(admin: key.name, action: "orderLookup", reason: "order \(orderID)")
        _ = try await dependencies.pipeline(for: app).ingest(
            .appleAnswer(verified, originalTransactionID: first.originalTransactionID), now: dependencies.clock.now, requestedBy: action)
        var purchases: [PurchaseLookupResponse] = []
        for id in Set(verified.records.transactions.map(\.originalTransactionID)).sorted() {
            if let found = try await LookUpPurchase.stored(id, dependencies: dependencies) { purchases.append(found) }
        }
        dependencies.logger.info("admin action: order looked up", metadata: ["admin": "\(key.name)", "app": "\(app.id)", "orderId": "\(orderID)"])
        return OrderLookupAnswer(orderId: orderID, purchases: purchases)
    }
}

/// Asking Apple for the statuses of every subscription a user has in the app now and applying
/// them, attributed to the operator: a subscriber whose state looks stale.
struct RefreshSubscriber: OperatorAction {
    static let scope = AdminScope.support

    let user: AppUserID
    let reason: String?
    let app: AppContext

    /// The user's answer after the refresh.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> SubscriberResponse {
        let client = try ActionTargets.serverAPIClient(of: app)
        let records = try await dependencies.storage.records(ownedBy: user, appBundleID: app.bundleID)
        let subscriptions = Set(records.evidence.transactions.filter { app.catalog.productType(of: $0) == .autoRenewable }.map(\.originalTransactionID))
        guard !subscriptions.isEmpty else { throw APIError.notFound("\(user) has no subscription in app \(app.id)") }
        let action = AdminAction(admin: key.name, action: "refresh", reason: reason)
        for id in subscriptions.sorted() { try await dependencies.refresh(id, app: app, client: client, action: action) }
        dependencies.logger.info("admin action: subscriber refreshed from Apple", metadata: ["admin": "\(key.name)", "app": "\(app.id)", "appUserId": "\(user)"])
        return try await dependencies.pipeline(for: app).answer(for: user, now: dependencies.clock.now)
    }
}

/// Asking Apple to send the app's notification URL a test notification (Request a Test
/// Notification): whether Apple's notifications reach the server.
struct RequestTestNotification: OperatorAction {
    static let scope = AdminScope.support

    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> TestNotificationRequested {
        let sent: SendTestNotificationResponse = try await ActionTargets.serverAPIClient(of: app).send(.requestTestNotification)
        guard let token = sent.testNotificationToken else { throw AppStoreServerAPIError.decoding("no testNotificationToken") }
        dependencies.logger.info("admin action: test notification requested", metadata: ["admin": "\(key.name)", "app": "\(app.id)"])
        return TestNotificationRequested(testNotificationToken: token)
    }
}

/// Whether a test notification arrived, as Apple saw its attempts (Get Test Notification Status).
/// A read: any admin key.
struct CheckTestNotification: OperatorAction {
    static let scope = AdminScope.readOnly

    let token: String
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> TestNotificationStatus {
        let client = try ActionTargets.serverAPIClient(of: app)
        guard !token.isEmpty else { throw APIError.malformed("no test notification token") }
        let status: CheckTestNotificationResponse
        do throws(AppStoreServerAPIError) {
            status = try await client.send(.testNotificationStatus(token: token))
        } catch {
            throw Self.refusal(error, token: token)
        }
        let attempts = (status.sendAttempts ?? []).map {
            TestNotificationStatus.Attempt(attemptDate: $0.attemptDate, result: $0.sendAttemptResult?.rawValue ?? "UNKNOWN")
        }
        return TestNotificationStatus(arrived: attempts.contains { $0.result == "SUCCESS" }, attempts: attempts)
    }

    /// Apple's 404 and 400 say the caller's token is wrong, not Apple: 404 and 400, not a 502
    /// "Apple refused".
    private static func refusal(_ error: AppStoreServerAPIError, token: String) -> any Error {
        switch error {
        case .api(status: 404, code: _, message: _): APIError.notFound("Apple knows no test notification with the token \(token)")
        case .api(status: 400, code: _, message: let message): APIError.malformed("\(token) is not a test notification token (Apple: \(message))")
        default: error
        }
    }
}

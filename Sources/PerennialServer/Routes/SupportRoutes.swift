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
/// Moving a purchase to another user goes through the same ownership decision as a user
/// presenting it (forced to transfer), with the same audit entries and events; unbinding it
/// leaves it to the next user who presents it, with an `ownershipReleased` event and audit entry. Refreshing a
/// subscriber from Apple, extending a subscription's renewal date and setting a purchase's app
/// account token (``AppAccountTokenBinding``) act on it for the operator: what Apple then answers
/// is applied as evidence whose timeline entry names the admin key and the reason.
///
/// Reading needs any admin key; everything that asks Apple to act, or applies its answer, needs
/// the support scope. Each action is logged with the key's name.
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
        reads.get("apps/:appId/consumption-requests") { request, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let limit = try QueryLimit.from(request)
            return JSONResponse.make(
                ConsumptionRequestsResponse(requests: try await dependencies.storage.consumptionRequests(appBundleID: app.bundleID, limit: limit)))
        }
        actions.get("apps/:appId/orders/:orderId") { _, context in
            let (app, client) = try serverAPI(context)
            guard let order = context.parameters.get("orderId"), Self.isOrderID(order) else {
                throw APIError.malformed("an order id is letters and digits, as in Apple's receipt email")
            }
            return JSONResponse.make(try await lookUp(order: order, in: app, client: client, admin: context.adminName))
        }
        actions.post("apps/:appId/subscribers/:appUserId/refresh") { request, context in
            let (app, client) = try serverAPI(context)
            let user = try PathUser.from(context)
            let body = try await JSONResponse.decodeStrictlyOptional(ActionRequest.self, from: request, context: context)
            try await refresh(subscriber: user, in: app, client: client, admin: context.adminName, reason: body?.reason)
            return JSONResponse.make(try await dependencies.pipeline(for: app).answer(for: user, now: dependencies.clock.now))
        }
        actions.post("apps/:appId/subscriptions/:originalTransactionId/extend") { request, context in
            let (app, client) = try serverAPI(context)
            let body = try await JSONResponse.decodeStrictly(ExtensionRequest.self, from: request, context: context)
            try RenewalExtensionRules.check(days: body.extendByDays, reasonCode: body.extendReasonCode)
            let (id, owner) = try await ownedPurchase(context, in: app)
            let requestJSON = try JSONEncoder().encode(
                ExtendRenewalDateRequest(
                    extendByDays: body.extendByDays, extendReasonCode: ExtendReasonCode(rawValue: body.extendReasonCode),
                    requestIdentifier: UUID().uuidString.lowercased()))
            let extended: ExtendRenewalDateResponse = try await client.send(
                .extendRenewalDate(originalTransactionID: id, body: ServerAPIRequestBody(json: requestJSON)))
            guard extended.success == true else {
                throw APIError(status: .unprocessableContent, code: "extensionRefused", message: "Apple did not extend subscription \(id)")
            }
            let reason = body.reason.map { "\(body.extendByDays) days: \($0)" } ?? "\(body.extendByDays) days"
            dependencies.logger.info(
                "admin action: subscription extended", metadata: ["admin": "\(context.adminName)", "app": "\(app.id)", "originalTransactionId": "\(id)"])
            do {
                try await dependencies.refresh(id, app: app, client: client, action: AdminAction(admin: context.adminName, action: "extend", reason: reason))
            } catch {
                // Apple has extended it: an error here would read as a failed extension, and the
                // retry would extend it again (and spend one of the two extensions Apple allows a year).
                dependencies.logger.warning(
                    "subscription extended, but reading its new state from Apple failed",
                    metadata: ["app": "\(app.id)", "originalTransactionId": "\(id)", "error": "\(error)"])
                return JSONResponse.make(ExtensionNotReadBack(originalTransactionID: id, effectiveDate: extended.effectiveDate, error: error), status: .accepted)
            }
            return JSONResponse.make(try await dependencies.pipeline(for: app).answer(for: owner, now: dependencies.clock.now))
        }
        actions.post("apps/:appId/subscriptions/:originalTransactionId/move") { request, context in
            let app = try app(context)
            let body = try await JSONResponse.decodeStrictly(MoveRequest.self, from: request, context: context)
            let target = try PathUser.checked(body.toAppUserId, named: "toAppUserId")
            let (original, owner) = try await ownedPurchase(context, in: app)
            guard owner != target else { throw APIError.malformed("\(original) already belongs to \(target)") }
            let pipeline = dependencies.pipeline(for: app)
            guard let move = try await pipeline.moves(of: owner, only: original, to: target, by: .support).first else {
                throw APIError.notFound("no records of purchase \(original)")
            }
            let action = AdminAction(admin: context.adminName, action: "move", reason: body.reason)
            let now = dependencies.clock.now
            let outcome = try await pipeline.ingest(move, now: now, requestedBy: action)
            dependencies.logger.info(
                "admin action: purchase moved",
                metadata: ["admin": "\(context.adminName)", "app": "\(app.id)", "originalTransactionId": "\(original)", "from": "\(owner)", "to": "\(target)"])
            return JSONResponse.make(try await pipeline.answer(for: target, after: outcome, now: now))
        }
        actions.post("apps/:appId/subscriptions/:originalTransactionId/unbind") { request, context in
            let app = try app(context)
            let body = try await JSONResponse.decodeStrictlyOptional(ActionRequest.self, from: request, context: context)
            let (original, owner) = try await ownedPurchase(context, in: app)
            let now = dependencies.clock.now
            let action = AdminAction(admin: context.adminName, action: "unbind", reason: body?.reason)
            guard try await dependencies.storage.releasePurchase(original, appBundleID: app.bundleID, with: app.applier, action: action, now: now) != nil
            else { throw APIError.notFound("no purchase \(original) bound to a user of app \(app.id)") }
            dependencies.webhookWakeUp.nudge()
            dependencies.logger.info(
                "admin action: purchase unbound",
                metadata: ["admin": "\(context.adminName)", "app": "\(app.id)", "originalTransactionId": "\(original)", "from": "\(owner)"])
            return JSONResponse.make(try await dependencies.pipeline(for: app).answer(for: owner, now: now))
        }
        actions.post("apps/:appId/subscriptions/:originalTransactionId/app-account-token") { request, context in
            let pipeline = dependencies.pipeline(for: try app(context))
            let binding = try AppAccountTokenBinding(pipeline: pipeline)
            let body = try await JSONResponse.decodeStrictlyOptional(ActionRequest.self, from: request, context: context)
            let purchase = try await OwnedPurchase.find(context.parameters.get("originalTransactionId"), in: pipeline)
            try await binding.bind(purchase, by: context.adminName, reason: body?.reason, now: dependencies.clock.now)
            return JSONResponse.make(try await pipeline.answer(for: purchase.owner, now: dependencies.clock.now))
        }
        actions.post("apps/:appId/subscriptions/:originalTransactionId/refunds") { request, context in
            let (app, client) = try serverAPI(context)
            let body = try await JSONResponse.decodeStrictlyOptional(ActionRequest.self, from: request, context: context)
            let (id, owner) = try await ownedPurchase(context, in: app)
            let pages = try await client.allPages(.refundHistory(transactionID: id), as: RefundHistoryResponse.self)
            let signed = pages.flatMap { $0.signedTransactions ?? [] }
            let pipeline = dependencies.pipeline(for: app)
            let now = dependencies.clock.now
            if let verified = try await app.verifier.signedTransactions(signed, raw: try JSONEncoder().encode(signed)) {
                let action = AdminAction(admin: context.adminName, action: "refundHistory", reason: body?.reason)
                _ = try await pipeline.ingest(.appleAnswer(verified, originalTransactionID: id), now: now, requestedBy: action)
            }
            dependencies.logger.info(
                "admin action: refund history applied",
                metadata: ["admin": "\(context.adminName)", "app": "\(app.id)", "originalTransactionId": "\(id)", "refunds": "\(signed.count)"])
            return JSONResponse.make(try await pipeline.answer(for: owner, now: now))
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
            let status: CheckTestNotificationResponse
            do {
                status = try await client.send(.testNotificationStatus(token: token))
            } catch AppStoreServerAPIError.api(status: 404, code: _, message: _) {
                // The caller's token, not Apple, is what is wrong: 404, not a 502 "Apple refused".
                throw APIError.notFound("Apple knows no test notification with the token \(token)")
            } catch AppStoreServerAPIError.api(status: 400, code: _, message: let message) {
                throw APIError.malformed("\(token) is not a test notification token (Apple: \(message))")
            }
            let attempts = (status.sendAttempts ?? []).map {
                TestNotificationStatus.Attempt(attemptDate: $0.attemptDate, result: $0.sendAttemptResult?.rawValue ?? "UNKNOWN")
            }
            return JSONResponse.make(TestNotificationStatus(arrived: attempts.contains { $0.result == "SUCCESS" }, attempts: attempts))
        }
    }

    /// Asks Apple for the order `order` (letters and digits, as in Apple's receipt email) of
    /// `app`, applies what it answers as evidence requested by the admin key `admin`, and returns
    /// the purchases it names with their owners.
    func lookUp(order: String, in app: AppContext, client: AppStoreServerAPIClient, admin: String) async throws -> OrderLookupAnswer {
        let answer = try await client.sendReturningData(.orderLookup(orderID: order))
        guard let verified = try await app.verifier.orderLookup(answer), let first = verified.records.transactions.first else {
            throw APIError.notFound("Apple knows no order \(order) of app \(app.id)")
        }
        let action = AdminAction(admin: admin, action: "orderLookup", reason: "order \(order)")
        _ = try await dependencies.pipeline(for: app).ingest(
            .appleAnswer(verified, originalTransactionID: first.originalTransactionID), now: dependencies.clock.now, requestedBy: action)
        var purchases: [PurchaseLookupResponse] = []
        for id in Set(verified.records.transactions.map(\.originalTransactionID)).sorted() {
            if let found = try await lookUp(transactionID: id) { purchases.append(found) }
        }
        dependencies.logger.info("admin action: order looked up", metadata: ["admin": "\(admin)", "app": "\(app.id)", "orderId": "\(order)"])
        return OrderLookupAnswer(orderId: order, purchases: purchases)
    }

    /// Asks Apple for the statuses of every subscription `user` has in `app` and applies them,
    /// attributed to the admin key `admin` with `reason`.
    func refresh(subscriber user: AppUserID, in app: AppContext, client: AppStoreServerAPIClient, admin: String, reason: String?) async throws {
        let records = try await dependencies.storage.records(ownedBy: user, appBundleID: app.bundleID)
        let subscriptions = Set(records.evidence.transactions.filter { app.catalog.productType(of: $0) == .autoRenewable }.map(\.originalTransactionID))
        guard !subscriptions.isEmpty else { throw APIError.notFound("\(user) has no subscription in app \(app.id)") }
        let action = AdminAction(admin: admin, action: "refresh", reason: reason)
        for id in subscriptions.sorted() { try await dependencies.refresh(id, app: app, client: client, action: action) }
        dependencies.logger.info("admin action: subscriber refreshed from Apple", metadata: ["admin": "\(admin)", "app": "\(app.id)", "appUserId": "\(user)"])
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

    /// The path's app.
    private func app(_ context: PerennialRequestContext) throws(APIError) -> AppContext {
        try PathApp.from(context, in: dependencies.apps)
    }

    /// The path's original transaction id and the user of `app` who owns that purchase (``OwnedPurchase``).
    private func ownedPurchase(_ context: PerennialRequestContext, in app: AppContext) async throws -> (id: String, owner: AppUserID) {
        let found = try await OwnedPurchase.find(context.parameters.get("originalTransactionId"), in: dependencies.pipeline(for: app))
        return (found.originalTransactionID, found.owner)
    }

    /// The path's app and its App Store Server API client.
    private func serverAPI(_ context: PerennialRequestContext) throws -> (AppContext, AppStoreServerAPIClient) {
        let app = try app(context)
        return (app, try Self.serverAPIClient(of: app))
    }

    /// The App Store Server API client of `app`, which every action that asks Apple needs.
    static func serverAPIClient(of app: AppContext) throws(EvidenceError) -> AppStoreServerAPIClient {
        guard let client = app.serverAPI else {
            throw EvidenceError.notConfigured("app \(app.id) has no App Store Server API key (serverAPI)")
        }
        return client
    }

    /// Letters and digits, as in Apple's receipt email.
    static func isOrderID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    static func isTransactionID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 32 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

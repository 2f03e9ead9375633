import Foundation
import Hummingbird
import PerennialCore
import PerennialStorage

/// The admin API's door to what a support desk does (Server/Actions): find a purchase by a
/// transaction id or by the order id of Apple's receipt email, refresh a subscriber from Apple,
/// extend, move or unbind a purchase, set its app account token, read its owner's original app
/// purchase from Apple, apply its refund history, and
/// check that Apple's notifications reach the server. Each route builds its action from the path
/// and the body; the action declares its scope, checks its input and logs with the key's name.
struct SupportRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let admin = router.group("admin/v1")
        admin.action(.get, "purchases/:transactionId", dependencies: dependencies) { _, context in
            guard let id = context.parameters.get("transactionId"), ActionTargets.isTransactionID(id) else {
                throw APIError.malformed("a transaction id is Apple's decimal id (the original transaction id, or any of its transactions')")
            }
            return LookUpPurchase(transactionID: id)
        } answer: {
            JSONResponse.make($0)
        }
        admin.group().add(middleware: dependencies.adminAuthentication(requiring: .readOnly)).get("apps/:appId/consumption-requests") { request, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let limit = try QueryLimit.from(request)
            return JSONResponse.make(
                ConsumptionRequestsResponse(requests: try await dependencies.storage.consumptionRequests(appBundleID: app.bundleID, limit: limit)))
        }
        let app = router.group("admin/v1/apps/:appId")
        app.action(.get, "orders/:orderId", dependencies: dependencies) { _, context in
            LookUpOrder(orderID: context.parameters.get("orderId") ?? "", app: try pathApp(context))
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.post, "subscribers/:appUserId/refresh", dependencies: dependencies) { request, context in
            let (app, user) = (try pathApp(context), try PathUser.from(context))
            return RefreshSubscriber(user: user, reason: try await reason(request, context), app: app)
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.post, "subscriptions/:originalTransactionId/extend", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            let body = try await JSONResponse.decodeStrictly(ExtensionRequest.self, from: request, context: context)
            return ExtendSubscription(
                originalTransactionID: context.parameters.get("originalTransactionId"), days: body.extendByDays, reasonCode: body.extendReasonCode,
                reason: body.reason, app: app)
        } answer: { outcome in
            switch outcome {
            case .applied(let answer): JSONResponse.make(answer)
            case .notReadBack(let extended): JSONResponse.make(extended, status: .accepted)
            }
        }
        app.action(.post, "subscriptions/:originalTransactionId/move", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            let body = try await JSONResponse.decodeStrictly(MoveRequest.self, from: request, context: context)
            return MovePurchase(
                originalTransactionID: context.parameters.get("originalTransactionId"), target: try PathUser.checked(body.toAppUserId, named: "toAppUserId"),
                reason: body.reason, app: app)
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.post, "subscriptions/:originalTransactionId/unbind", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            return UnbindPurchase(originalTransactionID: context.parameters.get("originalTransactionId"), reason: try await reason(request, context), app: app)
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.post, "subscriptions/:originalTransactionId/app-account-token", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            return SetAppAccountToken(
                originalTransactionID: context.parameters.get("originalTransactionId"), reason: try await reason(request, context), app: app)
        } answer: {
            JSONResponse.make($0.answer)
        }
        app.action(.post, "subscriptions/:originalTransactionId/app-transaction", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            return ReadAppTransaction(originalTransactionID: context.parameters.get("originalTransactionId"), reason: try await reason(request, context), app: app)
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.post, "subscriptions/:originalTransactionId/refunds", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            return ApplyRefundHistory(originalTransactionID: context.parameters.get("originalTransactionId"), reason: try await reason(request, context), app: app)
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.post, "test-notifications", dependencies: dependencies) { _, context in
            RequestTestNotification(app: try pathApp(context))
        } answer: {
            JSONResponse.make($0, status: .accepted)
        }
        app.action(.get, "test-notifications/:token", dependencies: dependencies) { _, context in
            CheckTestNotification(token: context.parameters.get("token") ?? "", app: try pathApp(context))
        } answer: {
            JSONResponse.make($0)
        }
    }

    /// The path's app.
    private func pathApp(_ context: PerennialRequestContext) throws(APIError) -> AppContext {
        try PathApp.from(context, in: dependencies.apps)
    }

    /// The optional body's reason, for the timeline.
    private func reason(_ request: Request, _ context: PerennialRequestContext) async throws -> String? {
        try await JSONResponse.decodeStrictlyOptional(ActionRequest.self, from: request, context: context)?.reason
    }
}

import Foundation
import Hummingbird
import PerennialCore
import PerennialStorage

/// The admin API of webhook deliveries: list them by state (any admin key), redeliver one
/// (``RedeliverWebhook``) or replay delivered ones (``ReplayWebhooks``).
struct WebhookAdminRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let webhooks = router.group("admin/v1/webhooks")
        webhooks.group().add(middleware: dependencies.adminAuthentication(requiring: .readOnly)).get("deliveries") { request, _ in
            let stateName = request.uri.queryParameters.get("state") ?? WebhookDelivery.State.pending.rawValue
            guard let state = WebhookDelivery.State(rawValue: stateName) else {
                throw APIError.malformed("state must be one of pending, delivered, dead (got '\(stateName)')")
            }
            let deliveries = try await dependencies.storage.listDeliveries(state: state, limit: try QueryLimit.from(request))
            return JSONResponse.make(WebhookDeliveriesResponse(deliveries: deliveries.map(WebhookDeliveriesResponse.Delivery.init)))
        }
        webhooks.action(.post, "deliveries/:id/redeliver", dependencies: dependencies) { _, context in
            guard let text = context.parameters.get("id"), let id = Int64(text) else {
                throw APIError.malformed("the delivery id must be an integer")
            }
            return RedeliverWebhook(deliveryID: id)
        } answer: {
            JSONResponse.make($0, status: .accepted)
        }
        webhooks.action(.post, "replay", dependencies: dependencies) { request, context in
            let replay = try await JSONResponse.decodeStrictly(WebhookReplayRequest.self, from: request, context: context)
            var since: Date?
            if let text = replay.since {
                guard let date = (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                else { throw APIError.malformed("since must be an ISO 8601 date (got '\(text)')") }
                since = date
            }
            var app: AppContext?
            if let id = replay.app {
                guard let named = dependencies.apps.app(id: id) else { throw APIError.notFound("no app \(id) is configured") }
                app = named
            } else if replay.appUserId != nil {
                // A user id is an app's own: name the app, unless there is only one.
                guard dependencies.apps.apps.count == 1 else {
                    throw APIError.malformed("name the app of user \(replay.appUserId ?? "") with \"app\" (\(dependencies.apps.apps.count) apps are configured)")
                }
                app = dependencies.apps.apps.first
            }
            return ReplayWebhooks(app: app, user: replay.appUserId.map(AppUserID.init(rawValue:)), since: since)
        } answer: {
            JSONResponse.make($0, status: .accepted)
        }
    }
}

import Foundation
import Hummingbird
import Logging
import PerennialCore
import PerennialStorage

/// The admin API of webhook deliveries: list them by state (any admin key), redeliver one (a dead
/// letter once the receiver is fixed) or replay delivered ones (a receiver that lost its data)
/// with a full-scope key, each action logged with the key's name.
struct WebhookAdminRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let outbox = dependencies.storage
        let listing = router.group("admin/v1/webhooks").add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        let actions = router.group("admin/v1/webhooks").add(middleware: dependencies.adminAuthentication(requiring: .full))
        listing.get("deliveries") { request, _ in
            let stateName = request.uri.queryParameters.get("state") ?? WebhookDelivery.State.pending.rawValue
            guard let state = WebhookDelivery.State(rawValue: stateName) else {
                throw APIError.malformed("state must be one of pending, delivered, dead (got '\(stateName)')")
            }
            let deliveries = try await outbox.listDeliveries(state: state, limit: try QueryLimit.from(request))
            return JSONResponse.make(WebhookDeliveriesResponse(deliveries: deliveries.map(WebhookDeliveriesResponse.Delivery.init)))
        }
        actions.post("deliveries/:id/redeliver") { _, context in
            guard let text = context.parameters.get("id"), let id = Int64(text) else {
                throw APIError.malformed("the delivery id must be an integer")
            }
            guard try await outbox.redeliver(id: id, now: dependencies.clock.now) else { throw APIError.notFound("no delivered or dead delivery \(id)") }
            dependencies.logger.info("admin action: webhook redelivered", metadata: ["admin": "\(context.adminName)", "delivery": "\(id)"])
            dependencies.webhookWakeUp.nudge()
            return JSONResponse.make(WebhookRequeueResponse(requeued: 1), status: .accepted)
        }
        actions.post("replay") { request, context in
            let replay = try await JSONResponse.decodeStrictly(WebhookReplayRequest.self, from: request, context: context)
            var since: Date?
            if let text = replay.since {
                guard let date = (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                else { throw APIError.malformed("since must be an ISO 8601 date (got '\(text)')") }
                since = date
            }
            let requeued = try await outbox.requeueDelivered(
                appUserID: replay.appUserId.map(AppUserID.init(rawValue:)), since: since, now: dependencies.clock.now)
            dependencies.logger.info(
                "admin action: webhooks replayed",
                metadata: ["admin": "\(context.adminName)", "requeued": "\(requeued)", "appUserId": "\(replay.appUserId ?? "*")"])
            if requeued > 0 { dependencies.webhookWakeUp.nudge() }
            return JSONResponse.make(WebhookRequeueResponse(requeued: requeued), status: .accepted)
        }
    }
}

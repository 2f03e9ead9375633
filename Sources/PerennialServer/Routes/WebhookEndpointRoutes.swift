import Foundation
import Hummingbird
import PerennialCore
import PerennialStorage

/// The admin API's door to webhook endpoints kept in the database (``WebhookEndpointActions``):
/// any admin key lists them beside the configuration file's; the changes are actions.
struct WebhookEndpointRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let webhooks = router.group("admin/v1/apps/:appId/webhooks")
        webhooks.group().add(middleware: dependencies.adminAuthentication(requiring: .readOnly)).get("endpoints") { _, context in
            let app = try pathApp(context)
            let now = dependencies.webhookSender.wallClock.now
            let stored = try await dependencies.storage.webhookEndpoints(appBundleID: app.bundleID)
            return JSONResponse.make(
                WebhookEndpointsResponse(
                    endpoints: app.webhooks.map(WebhookEndpointResponse.init(file:)) + stored.map { WebhookEndpointResponse($0, now: now) }))
        }
        webhooks.action(.post, "endpoints", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            return AddWebhookEndpoint(request: try await JSONResponse.decodeStrictly(WebhookEndpointRequest.self, from: request, context: context), app: app)
        } answer: {
            JSONResponse.make($0, status: .created)
        }
        webhooks.action(.delete, "endpoints/:endpointId", dependencies: dependencies) { _, context in
            RemoveWebhookEndpoint(endpointID: endpointID(context), app: try pathApp(context))
        } answer: {
            JSONResponse.make($0)
        }
        webhooks.action(.post, "endpoints/:endpointId/pause", dependencies: dependencies) { _, context in
            ChangeWebhookEndpoint(endpointID: endpointID(context), change: .pause, app: try pathApp(context))
        } answer: {
            JSONResponse.make($0)
        }
        webhooks.action(.post, "endpoints/:endpointId/resume", dependencies: dependencies) { _, context in
            ChangeWebhookEndpoint(endpointID: endpointID(context), change: .resume, app: try pathApp(context))
        } answer: {
            JSONResponse.make($0)
        }
        webhooks.action(.post, "endpoints/:endpointId/event-types", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            let body = try await JSONResponse.decodeStrictly(WebhookEventTypesRequest.self, from: request, context: context)
            return ChangeWebhookEndpoint(endpointID: endpointID(context), change: .eventTypes(body.eventTypes), app: app)
        } answer: {
            JSONResponse.make($0)
        }
        webhooks.action(.post, "endpoints/:endpointId/rotate-secret", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            let body = try await JSONResponse.decodeStrictlyOptional(WebhookSecretRotationRequest.self, from: request, context: context)
            return RotateWebhookSecret(
                endpointID: endpointID(context), overlapSeconds: body?.overlapSeconds ?? WebhookEndpointActions.defaultOverlap, app: app)
        } answer: {
            JSONResponse.make($0)
        }
        webhooks.action(.post, "endpoints/:endpointId/test", dependencies: dependencies) { _, context in
            SendWebhookTestEvent(endpointID: endpointID(context), app: try pathApp(context))
        } answer: {
            JSONResponse.make($0)
        }
    }

    private func pathApp(_ context: PerennialRequestContext) throws(APIError) -> AppContext {
        try PathApp.from(context, in: dependencies.apps)
    }

    private func endpointID(_ context: PerennialRequestContext) -> String {
        context.parameters.get("endpointId") ?? ""
    }
}

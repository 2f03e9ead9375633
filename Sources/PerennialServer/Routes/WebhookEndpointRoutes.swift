import Foundation
import Hummingbird
import Logging
import PerennialCore
import PerennialStorage

/// Webhook endpoints managed through the admin API beside the configuration file's: list them
/// (any admin key); add, remove, pause and resume one, set which event types it is sent, rotate
/// its secret (the previous one still signs deliveries for an overlap, so a receiver can switch
/// without refusing one) and send it a test event, with a full-scope key. Stored in the database,
/// so every process sharing it delivers to the same endpoints from its next round; each action is
/// logged with the key's name.
struct WebhookEndpointRoutes: Sendable {
    let dependencies: ServerDependencies

    /// The longest overlap of a rotated secret, and the default one.
    static let maximumOverlap = 7 * 86_400
    static let defaultOverlap = 86_400

    func add(to router: Router<PerennialRequestContext>) {
        let reads = router.group("admin/v1/apps/:appId/webhooks").add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        let actions = router.group("admin/v1/apps/:appId/webhooks").add(middleware: dependencies.adminAuthentication(requiring: .full))
        reads.get("endpoints") { _, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let now = dependencies.webhookSender.wallClock.now
            let stored = try await dependencies.storage.webhookEndpoints(appBundleID: app.bundleID)
            return JSONResponse.make(
                WebhookEndpointsResponse(
                    endpoints: app.webhooks.map(WebhookEndpointResponse.init(file:)) + stored.map { WebhookEndpointResponse($0, now: now) }))
        }
        actions.post("endpoints") { request, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let body = try await JSONResponse.decodeStrictly(WebhookEndpointRequest.self, from: request, context: context)
            let url = try Self.url(body.url)
            let eventTypes = try Self.eventTypes(body.eventTypes)
            let secret = try body.secret.map(Self.checked) ?? Self.newSecret()
            guard !app.webhooks.contains(where: { $0.url == url }) else { throw WebhookEndpointError.duplicateURL(url.absoluteString) }
            let now = dependencies.webhookSender.wallClock.now
            let endpoint = StoredWebhookEndpoint(
                id: "whep_\(UUID().uuidString.lowercased())", appBundleID: app.bundleID, url: url, secret: secret, eventTypes: eventTypes,
                createdAt: now, createdBy: context.adminName)
            guard try await dependencies.storage.addWebhookEndpoint(endpoint) else { throw WebhookEndpointError.duplicateURL(url.absoluteString) }
            log("webhook endpoint added", endpoint, context)
            dependencies.webhookWakeUp.nudge()
            return JSONResponse.make(WebhookEndpointSecretResponse(endpoint: WebhookEndpointResponse(endpoint, now: now), secret: secret), status: .created)
        }
        actions.delete("endpoints/:endpointId") { _, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let id = context.parameters.get("endpointId") ?? ""
            guard let removed = try await dependencies.storage.removeWebhookEndpoint(id: id, appBundleID: app.bundleID) else {
                throw WebhookEndpointError.noSuchEndpoint(id, app: app.id)
            }
            log("webhook endpoint removed", removed, context)
            return JSONResponse.make(WebhookEndpointResponse(removed, now: dependencies.webhookSender.wallClock.now))
        }
        actions.post("endpoints/:endpointId/pause") { _, context in
            try await change(context, "webhook endpoint paused") { $0.isPaused = true }
        }
        actions.post("endpoints/:endpointId/resume") { _, context in
            try await change(context, "webhook endpoint resumed") { $0.isPaused = false }
        }
        actions.post("endpoints/:endpointId/event-types") { request, context in
            let eventTypes = try Self.eventTypes(try await JSONResponse.decodeStrictly(WebhookEventTypesRequest.self, from: request, context: context).eventTypes)
            return try await change(context, "webhook endpoint event types set") { $0.eventTypes = eventTypes }
        }
        actions.post("endpoints/:endpointId/rotate-secret") { request, context in
            let overlap = try await JSONResponse.decodeStrictlyOptional(WebhookSecretRotationRequest.self, from: request, context: context)?.overlapSeconds ?? Self.defaultOverlap
            guard (0...Self.maximumOverlap).contains(overlap) else { throw WebhookEndpointError.invalidOverlap(overlap) }
            let secret = Self.newSecret()
            // The overlap is the receiver's real time, as are the signatures' dates.
            let now = dependencies.webhookSender.wallClock.now
            let (app, rotated) = try await update(context) { endpoint in
                endpoint.previousSecret = endpoint.secret
                endpoint.previousSecretExpiresAt = now.addingTimeInterval(TimeInterval(overlap))
                endpoint.secret = secret
            }
            log("webhook endpoint secret rotated", rotated, context, ["app": "\(app.id)", "overlapSeconds": "\(overlap)"])
            return JSONResponse.make(WebhookEndpointSecretResponse(endpoint: WebhookEndpointResponse(rotated, now: now), secret: secret))
        }
        actions.post("endpoints/:endpointId/test") { _, context in
            let app = try PathApp.from(context, in: dependencies.apps)
            let endpoint = try await stored(context, in: app)
            let now = dependencies.webhookSender.wallClock.now
            let body = try WebhookBody.test(appID: app.id, bundleID: app.bundleID, at: now)
            let sent = await dependencies.webhookSender.send(
                OutboundEvent(type: "test", appID: app.id, body: body, entry: nil), to: WebhookTarget(endpoint, at: now))
            log("webhook test event sent", endpoint, context, ["result": "\(sent.result)"])
            let answer =
                switch sent.result {
                case .accepted: WebhookTestResponse(delivered: true, status: sent.status, error: nil)
                case .retry(let reason), .rejected(let reason): WebhookTestResponse(delivered: false, status: sent.status, error: reason)
                }
            return JSONResponse.make(answer)
        }
    }

    /// Changes the path's endpoint with `body` and answers it.
    private func change(
        _ context: PerennialRequestContext, _ message: Logger.Message, _ body: @Sendable (inout StoredWebhookEndpoint) -> Void
    ) async throws -> Response {
        let (_, changed) = try await update(context, body)
        log(message, changed, context)
        dependencies.webhookWakeUp.nudge()
        return JSONResponse.make(WebhookEndpointResponse(changed, now: dependencies.webhookSender.wallClock.now))
    }

    private func update(
        _ context: PerennialRequestContext, _ body: (inout StoredWebhookEndpoint) -> Void
    ) async throws -> (AppContext, StoredWebhookEndpoint) {
        let app = try PathApp.from(context, in: dependencies.apps)
        var endpoint = try await stored(context, in: app)
        body(&endpoint)
        guard try await dependencies.storage.updateWebhookEndpoint(endpoint) else { throw WebhookEndpointError.noSuchEndpoint(endpoint.id, app: app.id) }
        return (app, endpoint)
    }

    /// The path's endpoint among those the app has in the database.
    private func stored(_ context: PerennialRequestContext, in app: AppContext) async throws -> StoredWebhookEndpoint {
        let id = context.parameters.get("endpointId") ?? ""
        guard let endpoint = try await dependencies.storage.webhookEndpoints(appBundleID: app.bundleID).first(where: { $0.id == id }) else {
            throw WebhookEndpointError.noSuchEndpoint(id, app: app.id)
        }
        return endpoint
    }

    private func log(
        _ message: Logger.Message, _ endpoint: StoredWebhookEndpoint, _ context: PerennialRequestContext, _ extra: Logger.Metadata = [:]
    ) {
        dependencies.logger.info(
            "admin action: \(message)",
            metadata: ["admin": "\(context.adminName)", "endpoint": "\(endpoint.id)", "url": "\(endpoint.url.absoluteString)"].merging(extra) { $1 })
    }

    private static func url(_ text: String) throws(WebhookEndpointError) -> URL {
        guard let url = URL(string: text), WebhookTarget.canDeliver(to: url) else {
            throw .invalidURL(text)
        }
        return url
    }

    private static func eventTypes(_ names: [String]?) throws(WebhookEndpointError) -> [String]? {
        guard let names else { return nil }
        guard !names.isEmpty else { throw .emptyEventTypes }
        let unknown = WebhookEventTypes.unknown(in: names)
        guard unknown.isEmpty else { throw .unknownEventTypes(unknown) }
        return Array(Set(names)).sorted()
    }

    private static func checked(_ secret: String) throws(WebhookEndpointError) -> String {
        guard secret.count >= 24 else { throw .weakSecret }
        return secret
    }

    /// `whsec_` and 32 random bytes in hex.
    private static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return "whsec_" + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

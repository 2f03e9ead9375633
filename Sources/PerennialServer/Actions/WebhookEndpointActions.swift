import Foundation
import Logging
import PerennialCore
import PerennialStorage

/// Webhook endpoints kept in the database beside the configuration file's: added, removed,
/// paused, resumed, filtered by event type, their secrets rotated and sent a test event, with a
/// full-scope key. Every process sharing the database delivers to the same endpoints from its next
/// round; each change is logged with the key's name.
enum WebhookEndpointActions {
    /// The longest overlap of a rotated secret, and the default one.
    static let maximumOverlap = 7 * 86_400
    static let defaultOverlap = 86_400

    /// The app's endpoint `id` among those it has in the database.
    static func stored(_ id: String, in app: AppContext, storage: any SubscriberStorage) async throws -> StoredWebhookEndpoint {
        guard let endpoint = try await storage.webhookEndpoints(appBundleID: app.bundleID).first(where: { $0.id == id }) else {
            throw WebhookEndpointError.noSuchEndpoint(id, app: app.id)
        }
        return endpoint
    }

    /// Changes endpoint `id` with `body` and stores it.
    static func update(
        _ id: String, in app: AppContext, storage: any SubscriberStorage, _ body: (inout StoredWebhookEndpoint) -> Void
    ) async throws -> StoredWebhookEndpoint {
        var endpoint = try await stored(id, in: app, storage: storage)
        body(&endpoint)
        guard try await storage.updateWebhookEndpoint(endpoint) else { throw WebhookEndpointError.noSuchEndpoint(endpoint.id, app: app.id) }
        return endpoint
    }

    static func log(
        _ message: Logger.Message, _ endpoint: StoredWebhookEndpoint, by key: ActingKey, logger: Logger, _ extra: Logger.Metadata = [:]
    ) {
        logger.info(
            "admin action: \(message)",
            metadata: ["admin": "\(key.name)", "endpoint": "\(endpoint.id)", "url": "\(endpoint.url.absoluteString)"].merging(extra) { $1 })
    }

    static func url(_ text: String) throws(WebhookEndpointError) -> URL {
        guard let url = URL(string: text), WebhookTarget.canDeliver(to: url) else {
            throw .invalidURL(text)
        }
        return url
    }

    static func eventTypes(_ names: [String]?) throws(WebhookEndpointError) -> [String]? {
        guard let names else { return nil }
        guard !names.isEmpty else { throw .emptyEventTypes }
        let unknown = WebhookEventTypes.unknown(in: names)
        guard unknown.isEmpty else { throw .unknownEventTypes(unknown) }
        return Array(Set(names)).sorted()
    }

    static func checked(_ secret: String) throws(WebhookEndpointError) -> String {
        guard secret.count >= 24 else { throw .weakSecret }
        return secret
    }

    /// `whsec_` and 32 random bytes in hex.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return "whsec_" + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// Adds an endpoint with its secret (given, or made here) and the event types it is sent.
struct AddWebhookEndpoint: OperatorAction {
    static let scope = AdminScope.full

    let request: WebhookEndpointRequest
    let app: AppContext

    /// The endpoint and its secret, shown this once.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> WebhookEndpointSecretResponse {
        let url = try WebhookEndpointActions.url(request.url)
        let eventTypes = try WebhookEndpointActions.eventTypes(request.eventTypes)
        let secret = try request.secret.map(WebhookEndpointActions.checked) ?? WebhookEndpointActions.newSecret()
        guard !app.webhooks.contains(where: { $0.url == url }) else { throw WebhookEndpointError.duplicateURL(url.absoluteString) }
        let now = dependencies.webhookSender.wallClock.now
        let endpoint = StoredWebhookEndpoint(
            id: "whep_\(UUID().uuidString.lowercased())", appBundleID: app.bundleID, url: url, secret: secret, eventTypes: eventTypes,
            createdAt: now, createdBy: key.name)
        guard try await dependencies.storage.addWebhookEndpoint(endpoint) else { throw WebhookEndpointError.duplicateURL(url.absoluteString) }
        WebhookEndpointActions.log("webhook endpoint added", endpoint, by: key, logger: dependencies.logger)
        return WebhookEndpointSecretResponse(endpoint: WebhookEndpointResponse(endpoint, now: now), secret: secret)
    }
}

/// Removes an endpoint; its pending deliveries are no longer sent.
struct RemoveWebhookEndpoint: OperatorAction {
    static let scope = AdminScope.full

    let endpointID: String
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> WebhookEndpointResponse {
        guard let removed = try await dependencies.storage.removeWebhookEndpoint(id: endpointID, appBundleID: app.bundleID) else {
            throw WebhookEndpointError.noSuchEndpoint(endpointID, app: app.id)
        }
        WebhookEndpointActions.log("webhook endpoint removed", removed, by: key, logger: dependencies.logger)
        return WebhookEndpointResponse(removed, now: dependencies.webhookSender.wallClock.now)
    }
}

/// Pauses or resumes an endpoint, or sets the event types it is sent.
struct ChangeWebhookEndpoint: OperatorAction {
    static let scope = AdminScope.full

    enum Change: Sendable {
        case pause
        case resume
        /// Nil: every type.
        case eventTypes([String]?)
    }

    let endpointID: String
    let change: Change
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> WebhookEndpointResponse {
        let message: Logger.Message
        let apply: @Sendable (inout StoredWebhookEndpoint) -> Void
        switch change {
        case .pause:
            (message, apply) = ("webhook endpoint paused", { $0.isPaused = true })
        case .resume:
            (message, apply) = ("webhook endpoint resumed", { $0.isPaused = false })
        case .eventTypes(let names):
            let eventTypes = try WebhookEndpointActions.eventTypes(names)
            (message, apply) = ("webhook endpoint event types set", { $0.eventTypes = eventTypes })
        }
        let changed = try await WebhookEndpointActions.update(endpointID, in: app, storage: dependencies.storage, apply)
        WebhookEndpointActions.log(message, changed, by: key, logger: dependencies.logger)
        return WebhookEndpointResponse(changed, now: dependencies.webhookSender.wallClock.now)
    }
}

/// Gives an endpoint a new secret; the previous one still signs deliveries for the overlap, so a
/// receiver can switch without refusing one.
struct RotateWebhookSecret: OperatorAction {
    static let scope = AdminScope.full

    let endpointID: String
    let overlapSeconds: Int
    let app: AppContext

    /// The endpoint and its new secret, shown this once.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> WebhookEndpointSecretResponse {
        guard (0...WebhookEndpointActions.maximumOverlap).contains(overlapSeconds) else { throw WebhookEndpointError.invalidOverlap(overlapSeconds) }
        let secret = WebhookEndpointActions.newSecret()
        // The overlap is the receiver's real time, as are the signatures' dates.
        let now = dependencies.webhookSender.wallClock.now
        let rotated = try await WebhookEndpointActions.update(endpointID, in: app, storage: dependencies.storage) { endpoint in
            endpoint.previousSecret = endpoint.secret
            endpoint.previousSecretExpiresAt = now.addingTimeInterval(TimeInterval(overlapSeconds))
            endpoint.secret = secret
        }
        WebhookEndpointActions.log(
            "webhook endpoint secret rotated", rotated, by: key, logger: dependencies.logger, ["app": "\(app.id)", "overlapSeconds": "\(overlapSeconds)"])
        return WebhookEndpointSecretResponse(endpoint: WebhookEndpointResponse(rotated, now: now), secret: secret)
    }
}

/// Sends an endpoint a signed `test` event now, as the webhook job sends its deliveries, and says
/// what the receiver answered.
struct SendWebhookTestEvent: OperatorAction {
    static let scope = AdminScope.full

    let endpointID: String
    let app: AppContext

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> WebhookTestResponse {
        let endpoint = try await WebhookEndpointActions.stored(endpointID, in: app, storage: dependencies.storage)
        let now = dependencies.webhookSender.wallClock.now
        let body = try WebhookBody.test(appID: app.id, bundleID: app.bundleID, at: now)
        let sent = await dependencies.webhookSender.send(
            OutboundEvent(type: "test", appID: app.id, body: body, entry: nil), to: WebhookTarget(endpoint, at: now))
        WebhookEndpointActions.log("webhook test event sent", endpoint, by: key, logger: dependencies.logger, ["result": "\(sent.result)"])
        return switch sent.result {
        case .accepted: WebhookTestResponse(delivered: true, status: sent.status, error: nil)
        case .retry(let reason), .rejected(let reason): WebhookTestResponse(delivered: false, status: sent.status, error: reason)
        }
    }
}

/// Sends one delivered or dead delivery again: a dead letter once its receiver is fixed.
struct RedeliverWebhook: OperatorAction {
    static let scope = AdminScope.full

    let deliveryID: Int64

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> WebhookRequeueResponse {
        guard try await dependencies.storage.redeliver(id: deliveryID, now: dependencies.clock.now) else {
            throw APIError.notFound("no delivered or dead delivery \(deliveryID)")
        }
        dependencies.logger.info("admin action: webhook redelivered", metadata: ["admin": "\(key.name)", "delivery": "\(deliveryID)"])
        return WebhookRequeueResponse(requeued: 1)
    }
}

/// Sends delivered events again, of one app or all, of one of its users or all, since an instant
/// or ever: a receiver that lost its data.
struct ReplayWebhooks: OperatorAction {
    static let scope = AdminScope.full

    /// Nil: every app (and then `user` is nil too).
    let app: AppContext?
    let user: AppUserID?
    let since: Date?

    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> WebhookRequeueResponse {
        let requeued = try await dependencies.storage.requeueDelivered(
            appBundleID: app?.bundleID, appUserID: user, since: since, now: dependencies.clock.now)
        dependencies.logger.info(
            "admin action: webhooks replayed", metadata: ["admin": "\(key.name)", "requeued": "\(requeued)", "appUserId": "\(user?.rawValue ?? "*")"])
        return WebhookRequeueResponse(requeued: requeued)
    }
}

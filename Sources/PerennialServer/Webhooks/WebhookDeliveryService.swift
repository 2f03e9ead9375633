import Foundation
public import Logging
public import PerennialAppStore
public import PerennialCore
public import PerennialStorage
public import ServiceLifecycle

/// The webhook job: claims due outbox entries under a lease, POSTs each to every endpoint of its
/// app (the configuration file's and those added through the admin API, read at every round)
/// that wants its type, with a `Perennial-Signature`, and records the outcome — delivered, retry
/// later (``PerennialAppStore/RetryPolicy``) or dead-lettered.
///
/// An app without any endpoint keeps its events pending until it has one; a paused endpoint is
/// sent nothing. The app's integrations (``DeliveryTarget``s of their own) are delivered to
/// beside its endpoints; a target that rejects an event for good (bad credentials) dead-letters it
/// at once with its reason.
///
/// At least once: an entry is marked delivered only after every endpoint answered 2xx, and a lease
/// that lapses (a crashed process) lets another process deliver it again. In order per
/// subscriber: storage only hands out the oldest pending entry of each (app, app user). Graceful
/// shutdown stops claiming and lets the round in flight finish.
public struct WebhookDeliveryService: Service {
    let outbox: any WebhookOutbox
    let endpoints: (any WebhookEndpointStore)?
    let apps: AppRegistry
    let options: WebhookDeliveryOptions
    let wakeUp: WebhookWakeUp
    let sender: WebhookSender
    let clock: any TimeSource
    let wallClock: any TimeSource
    let metrics: ServerMetrics
    let logger: Logger

    /// - Parameters:
    ///   - endpoints: the endpoints added through the admin API; nil for the file's only.
    ///   - transport: how endpoints are reached (AsyncHTTPClient in production, with the options'
    ///     request timeout; an in-memory receiver in tests).
    ///   - clock: the server's "now", at which entries are claimed, delivered and retried.
    ///   - wallClock: the real time that dates each signature (the receiver checks it against its own).
    public init(
        outbox: any WebhookOutbox, endpoints: (any WebhookEndpointStore)? = nil, apps: AppRegistry,
        options: WebhookDeliveryOptions = WebhookDeliveryOptions(),
        wakeUp: WebhookWakeUp = WebhookWakeUp(), transport: (any AppStoreHTTPTransport)? = nil, clock: any TimeSource = WallClock(),
        wallClock: any TimeSource = WallClock(), metrics: ServerMetrics = ServerMetrics(), logger: Logger = Logger(label: "perennial.webhooks")
    ) {
        self.outbox = outbox
        self.endpoints = endpoints
        self.apps = apps
        self.options = options
        self.wakeUp = wakeUp
        self.sender = WebhookSender(transport: transport, requestTimeout: options.requestTimeout, wallClock: wallClock)
        self.clock = clock
        self.wallClock = wallClock
        self.metrics = metrics
        self.logger = logger
    }

    public func run() async throws {
        logger.info("webhook delivery started", metadata: ["owner": "\(options.owner)"])
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let worked = await deliverDue()
            guard !worked else { continue }
            await withGracefulShutdownHandler {
                await wakeUp.wait(upTo: options.pollInterval)
            } onGracefulShutdown: {
                wakeUp.nudge()
            }
        }
        logger.info("webhook delivery stopped", metadata: ["owner": "\(options.owner)"])
    }

    /// One round: claims a batch and delivers it concurrently (each entry heads a different
    /// subscriber's queue). Returns whether anything was claimed, so the loop goes on at once
    /// while there is a backlog. Public so tests and tools can drive rounds one at a time.
    public func deliverDue() async -> Bool {
        guard let targets = await targetsByApp(), !targets.isEmpty else { return false }
        let claimed: [WebhookDelivery]
        do {
            claimed = try await outbox.claimDeliveries(
                owner: options.owner, limit: options.batchSize, leaseFor: options.leaseDuration, now: clock.now)
        } catch {
            logger.error("cannot claim webhook deliveries", metadata: ["error": "\(error)"])
            return false
        }
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed {
                group.addTask { await deliver(delivery, targets: targets) }
            }
        }
        return !claimed.isEmpty
    }

    /// The endpoints of each app that has any (paused ones count, and are left out), by bundle
    /// id; nil when the stored endpoints cannot be read (the round is skipped).
    private func targetsByApp() async -> [String: [any DeliveryTarget]]? {
        var stored: [StoredWebhookEndpoint] = []
        if let endpoints {
            do {
                stored = try await endpoints.webhookEndpoints(appBundleID: nil)
            } catch {
                logger.error("cannot read webhook endpoints", metadata: ["error": "\(error)"])
                return nil
            }
        }
        let now = wallClock.now
        var targets: [String: [any DeliveryTarget]] = [:]
        for app in apps.apps where !app.webhooks.isEmpty || !app.integrations.isEmpty {
            targets[app.bundleID] = app.webhooks + app.integrations
        }
        for endpoint in stored where apps.apps.contains(where: { $0.bundleID == endpoint.appBundleID }) {
            targets[endpoint.appBundleID, default: []] += endpoint.isPaused ? [] : [WebhookTarget(endpoint, at: now)]
        }
        return targets
    }

    private func deliver(_ delivery: WebhookDelivery, targets: [String: [any DeliveryTarget]]) async {
        let entry = delivery.entry
        let attempt = entry.attempts + 1
        guard let app = apps.apps.first(where: { $0.bundleID == entry.event.appBundleID }) else {
            await failed(delivery, attempt: attempt, errors: ["app \(entry.event.appBundleID) is not configured"], accepted: [], retry: false)
            return
        }
        guard let appTargets = targets[app.bundleID] else {
            await waitForAnEndpoint(delivery)
            return
        }
        let body: Data
        do {
            body = try WebhookBody.make(of: entry, appID: app.id)
        } catch {
            await failed(delivery, attempt: attempt, errors: [error.description], accepted: [], retry: false)
            return
        }
        let event = OutboundEvent(type: entry.event.kind, appID: app.id, body: body, entry: entry)
        var accepted = delivery.acceptedEndpoints
        var errors: [String] = []
        var rejections: [String] = []
        for target in appTargets where !accepted.contains(target.key) {
            guard target.wants(entry.event.kind) else {
                accepted.append(target.key)
                continue
            }
            switch await sender.send(event, to: target).result {
            case .accepted: accepted.append(target.key)
            case .retry(let reason): errors.append("\(target.key): \(reason)")
            case .rejected(let reason): rejections.append("\(target.key): \(reason)")
            }
        }
        // A target that refused the event for good ends its deliveries only once no other target
        // is still to be retried: a misconfigured integration must not cost an endpoint its retries.
        guard errors.isEmpty else {
            await failed(delivery, attempt: attempt, errors: rejections + errors, accepted: accepted, retry: true)
            return
        }
        guard rejections.isEmpty else {
            await failed(delivery, attempt: attempt, errors: rejections, accepted: accepted, retry: false)
            return
        }
        do {
            if try await outbox.markDelivered(id: entry.id, owner: options.owner, at: clock.now) {
                metrics.recordWebhookDelivery(outcome: "delivered")
            } else {
                logger.warning("webhook lease lost before completion", metadata: metadata(entry))
            }
        } catch {
            logger.error("cannot record webhook delivery", metadata: metadata(entry).merging(["error": "\(error)"]) { $1 })
        }
    }

    /// Releases an entry of an app that has no endpoint (while another app has some): no attempt
    /// is counted, it is looked at again after a lease's time.
    private func waitForAnEndpoint(_ delivery: WebhookDelivery) async {
        let entry = delivery.entry
        do {
            _ = try await outbox.markFailed(
                id: entry.id, owner: options.owner, attempts: entry.attempts, nextAttemptAt: clock.now.addingTimeInterval(options.leaseDuration),
                error: "app \(entry.event.appBundleID) has no webhook endpoint", acceptedEndpoints: delivery.acceptedEndpoints)
        } catch {
            logger.error("cannot release webhook delivery", metadata: metadata(entry).merging(["error": "\(error)"]) { $1 })
        }
    }

    private func failed(_ delivery: WebhookDelivery, attempt: Int, errors: [String], accepted: [String], retry: Bool) async {
        let entry = delivery.entry
        let now = clock.now
        let error = errors.joined(separator: "; ")
        var random = SystemRandomNumberGenerator()
        let next = retry ? options.retryPolicy.nextAttempt(afterFailedAttempt: attempt, at: now, using: &random) : nil
        do {
            switch next {
            case let at?:
                _ = try await outbox.markFailed(
                    id: entry.id, owner: options.owner, attempts: attempt, nextAttemptAt: at, error: error, acceptedEndpoints: accepted)
                metrics.recordWebhookDelivery(outcome: "failed")
                logger.notice(
                    "webhook delivery failed; will retry",
                    metadata: metadata(entry).merging(["attempt": "\(attempt)", "retryAt": "\(at)", "error": "\(error)"]) { $1 })
            case nil:
                _ = try await outbox.deadLetter(
                    id: entry.id, owner: options.owner, attempts: attempt, error: error, acceptedEndpoints: accepted, at: now)
                metrics.recordWebhookDelivery(outcome: "abandoned")
                logger.error(
                    "webhook delivery dead-lettered", metadata: metadata(entry).merging(["attempt": "\(attempt)", "error": "\(error)"]) { $1 })
            }
        } catch {
            logger.error("cannot record webhook failure", metadata: metadata(entry).merging(["error": "\(error)"]) { $1 })
        }
    }

    private func metadata(_ entry: OutboxEntry) -> Logger.Metadata {
        ["outbox.id": "\(entry.id)", "event.id": "\(entry.event.eventID)", "appUserId": "\(entry.event.appUserID)"]
    }
}

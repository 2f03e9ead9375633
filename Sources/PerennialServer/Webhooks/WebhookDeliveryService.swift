import Foundation
public import Logging
public import PerennialAppStore
public import PerennialCore
public import PerennialStorage
public import ServiceLifecycle

/// The webhook job: claims due outbox entries under a lease, POSTs each to every endpoint of its
/// app with a `Perennial-Signature`, and records the outcome — delivered, retry later
/// (``WebhookRetryPolicy``) or dead-lettered.
///
/// At least once: an entry is marked delivered only after every endpoint answered 2xx, and a lease
/// that lapses (a crashed process) lets another process deliver it again. In order per
/// subscriber: storage only hands out the oldest pending entry of each (app, app user). Graceful
/// shutdown stops claiming and lets the round in flight finish.
public struct WebhookDeliveryService: Service {
    let outbox: any WebhookOutbox
    let apps: AppRegistry
    let options: WebhookDeliveryOptions
    let wakeUp: WebhookWakeUp
    let transport: any AppStoreHTTPTransport
    let clock: any TimeSource
    let wallClock: any TimeSource
    let metrics: ServerMetrics
    let logger: Logger

    /// - Parameters:
    ///   - transport: how endpoints are reached (AsyncHTTPClient in production, with the options'
    ///     request timeout; an in-memory receiver in tests).
    ///   - clock: the server's "now", at which entries are claimed, delivered and retried.
    ///   - wallClock: the real time that dates each signature (the receiver checks it against its own).
    public init(
        outbox: any WebhookOutbox, apps: AppRegistry, options: WebhookDeliveryOptions = WebhookDeliveryOptions(),
        wakeUp: WebhookWakeUp = WebhookWakeUp(), transport: (any AppStoreHTTPTransport)? = nil, clock: any TimeSource = WallClock(),
        wallClock: any TimeSource = WallClock(), metrics: ServerMetrics = ServerMetrics(), logger: Logger = Logger(label: "perennial.webhooks")
    ) {
        self.outbox = outbox
        self.apps = apps
        self.options = options
        self.wakeUp = wakeUp
        self.transport = transport ?? AsyncHTTPClientTransport(timeout: options.requestTimeout, maximumBodySize: 64 * 1024)
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
                group.addTask { await deliver(delivery) }
            }
        }
        return !claimed.isEmpty
    }

    private func deliver(_ delivery: WebhookDelivery) async {
        let entry = delivery.entry
        let attempt = entry.attempts + 1
        guard let app = apps.apps.first(where: { $0.bundleID == entry.event.appBundleID }) else {
            await failed(delivery, attempt: attempt, errors: ["app \(entry.event.appBundleID) is not configured"], accepted: [], retry: false)
            return
        }
        let body: Data
        do {
            body = try WebhookBody.make(of: entry, appID: app.id)
        } catch {
            await failed(delivery, attempt: attempt, errors: [error.description], accepted: [], retry: false)
            return
        }
        var accepted = delivery.acceptedEndpoints
        var errors: [String] = []
        for target in app.webhooks where !accepted.contains(target.url.absoluteString) {
            if let error = await post(body, to: target) {
                errors.append("\(target.url.absoluteString): \(error)")
            } else {
                accepted.append(target.url.absoluteString)
            }
        }
        guard errors.isEmpty else {
            await failed(delivery, attempt: attempt, errors: errors, accepted: accepted, retry: true)
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

    /// One POST; nil when the endpoint accepted it (2xx), else why not.
    ///
    /// The signature's timestamp is `wallClock`'s, whatever clock the server judges
    /// subscriptions at: the receiver checks it against its own real clock to refuse replays.
    private func post(_ body: Data, to target: WebhookTarget) async -> String? {
        let signature = WebhookSignature(body: body, secret: String(decoding: target.secret, as: UTF8.self), date: wallClock.now)
        let request = AppStoreHTTPRequest(
            method: .post, url: target.url,
            headers: ["Content-Type": "application/json", WebhookSignature.headerName: signature.header, "User-Agent": "perennial"],
            body: body)
        do {
            let response = try await transport.send(request)
            return (200..<300).contains(response.status) ? nil : "HTTP \(response.status)"
        } catch {
            return "\(error)"
        }
    }

    private func failed(_ delivery: WebhookDelivery, attempt: Int, errors: [String], accepted: [String], retry: Bool) async {
        let entry = delivery.entry
        let now = clock.now
        let error = errors.joined(separator: "; ")
        var random = SystemRandomNumberGenerator()
        let decision: WebhookRetryDecision =
            retry ? options.retryPolicy.decision(afterFailedAttempt: attempt, at: now, using: &random) : .deadLetter
        do {
            switch decision {
            case .retry(let at):
                _ = try await outbox.markFailed(
                    id: entry.id, owner: options.owner, attempts: attempt, nextAttemptAt: at, error: error, acceptedEndpoints: accepted)
                metrics.recordWebhookDelivery(outcome: "failed")
                logger.notice(
                    "webhook delivery failed; will retry",
                    metadata: metadata(entry).merging(["attempt": "\(attempt)", "retryAt": "\(at)", "error": "\(error)"]) { $1 })
            case .deadLetter:
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

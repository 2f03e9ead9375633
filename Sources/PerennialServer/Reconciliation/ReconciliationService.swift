public import Foundation
public import Logging
import PerennialAppStore
public import PerennialCore
public import PerennialStorage
public import ServiceLifecycle

/// The reconciliation job: asks Apple about subscriptions whose period ended without news, and
/// applies the answer as evidence of kind `reconciliation`.
///
/// Checks are scheduled by every apply (``PerennialStorage/ReconciliationPolicy``), so the job
/// claims only what is due; a daily sweep (one process per day decides, through storage) makes
/// every non-expired subscription due as a safety net; on start it backfills from Apple's
/// notification history. Calls to Apple pass a ``TokenBucket``; a check whose call fails after
/// the client's own retries is retried later with exponential backoff. Each check that got an
/// answer is one piece of evidence, so it appears in the subscriber's audit timeline with the
/// events it produced (none when Apple confirmed what was stored).
public struct ReconciliationService: Service {
    let storage: any SubscriberStorage
    let apps: AppRegistry
    let options: ReconciliationOptions
    let clock: any TimeSource
    let wallClock: any TimeSource
    let webhookWakeUp: WebhookWakeUp
    let metrics: ServerMetrics
    let logger: Logger

    /// - Parameters:
    ///   - storage: the schedule, and where answers are applied.
    ///   - clock: the server's "now", at which checks are claimed and answers applied.
    ///   - wallClock: the real time Apple's rate limit (the ``TokenBucket``) runs on.
    ///   - webhookWakeUp: the webhook job's, woken when an answer produced events.
    public init(
        storage: any SubscriberStorage, apps: AppRegistry, options: ReconciliationOptions = ReconciliationOptions(),
        clock: any TimeSource = WallClock(), wallClock: any TimeSource = WallClock(), webhookWakeUp: WebhookWakeUp = WebhookWakeUp(), metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "perennial.reconciliation")
    ) {
        self.storage = storage
        self.apps = apps
        self.options = options
        self.clock = clock
        self.wallClock = wallClock
        self.webhookWakeUp = webhookWakeUp
        self.metrics = metrics
        self.logger = logger
    }

    private func pipeline(for app: AppContext) -> EvidencePipeline {
        EvidencePipeline(app: app, storage: storage, webhookWakeUp: webhookWakeUp, metrics: metrics, logger: logger)
    }

    /// What one check came to.
    public enum Outcome: Hashable, Sendable {
        /// Apple answered and the answer was applied; `events` is how many events it produced.
        case reconciled(events: Int)
        /// The check failed and is due again at the date.
        case retryAt(Date)
        /// Another process took the lease over; nothing was recorded.
        case leaseLost
    }

    /// Migrates first (idempotent): the service starts beside the HTTP server, possibly before
    /// the application's own migration has run, and the backfill must see the schema.
    public func run() async throws {
        try await storage.migrate()
        await backfill()
        var bucket = TokenBucket(capacity: options.rateCapacity, ratePerSecond: options.ratePerSecond, start: wallClock.now)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let checked = await runOnce(bucket: &bucket)
            guard checked == 0 else { continue }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: options.pollInterval) }
        }
    }

    /// One round: starts the sweep if it is time, then claims due checks and runs them one after
    /// the other under the rate limit. Returns how many checks ran. Public so tests and tools can
    /// drive rounds one at a time.
    ///
    /// The rate limit runs on `wallClock`, not the server's `clock`: it protects Apple in real time
    /// (a server following a simulator's frozen virtual clock would otherwise wait for ever).
    public func runOnce(bucket: inout TokenBucket) async -> Int {
        do {
            if let swept = try await storage.scheduleSweep(now: clock.now, interval: options.sweepInterval), swept > 0 {
                logger.info("reconciliation sweep started", metadata: ["subscriptions": "\(swept)"])
            }
        } catch {
            logger.error("cannot schedule the reconciliation sweep", metadata: ["error": "\(error)"])
        }
        let checks: [ReconciliationCheck]
        do {
            checks = try await storage.claimDueChecks(
                owner: options.owner, limit: options.batchSize, leaseFor: options.leaseDuration, now: clock.now)
        } catch {
            logger.error("cannot claim reconciliation checks", metadata: ["error": "\(error)"])
            return 0
        }
        for check in checks {
            while let next = bucket.take(at: wallClock.now) {
                try? await Task.sleep(for: .seconds(max(next.timeIntervalSince(wallClock.now), 0.001)))
                if Task.isCancelled { return 0 }
            }
            _ = await reconcile(check)
        }
        return checks.count
    }

    /// Asks Apple about one claimed check, applies the answer and completes (or fails) the check.
    public func reconcile(_ check: ReconciliationCheck) async -> Outcome {
        let now = clock.now
        // The app's id, as every other line names it; its bundle id when no app of the configuration has it.
        let app = apps.apps.first { $0.bundleID == check.appBundleID }
        var metadata: Logger.Metadata = ["originalTransactionId": "\(check.originalTransactionID)", "app": "\(app?.id ?? check.appBundleID)"]
        do throws(ReconciliationError) {
            guard let app else { throw .unknownApp(bundleID: check.appBundleID) }
            let answer = try await AppleStatusQuery(storage: storage).ask(check, app: app, now: now)
            metadata["via"] = "\(answer.source)"
            var events = 0
            do throws(IngestError) {
                // No result: Apple knows nothing more about it, nothing to apply, the check is done.
                let outcome = try await pipeline(for: app).ingest(.appleAnswer(answer, originalTransactionID: check.originalTransactionID), now: now)
                if case .applied(let applied) = outcome.result { events = applied.events.count }
            } catch {
                throw .apple("cannot apply the answer: \(error)")
            }
            let completed = try await complete(check, now: now)
            logger.info("subscription reconciled", metadata: metadata.merging(["events": "\(events)"]) { $1 })
            return completed ? .reconciled(events: events) : .leaseLost
        } catch {
            return await fail(check, error: error, now: now, metadata: metadata)
        }
    }

    private func complete(_ check: ReconciliationCheck, now: Date) async throws(ReconciliationError) -> Bool {
        do {
            return try await storage.completeCheck(
                originalTransactionID: check.originalTransactionID, owner: options.owner, now: now,
                notBefore: now.addingTimeInterval(options.recheckInterval))
        } catch {
            throw .apple("cannot complete the check: \(error)")
        }
    }

    private func fail(_ check: ReconciliationCheck, error: ReconciliationError, now: Date, metadata: Logger.Metadata) async -> Outcome {
        let attempts = check.attempts + 1
        let retryAt = options.retryDate(afterAttempts: attempts, now: now)
        logger.warning(
            "reconciliation check failed; will retry",
            metadata: metadata.merging(["attempt": "\(attempts)", "retryAt": "\(retryAt)", "error": "\(error)"]) { $1 })
        do {
            let held = try await storage.failCheck(
                originalTransactionID: check.originalTransactionID, owner: options.owner, attempts: attempts, nextAttemptAt: retryAt,
                error: error.description, now: now)
            return held ? .retryAt(retryAt) : .leaseLost
        } catch {
            logger.error("cannot record the failed check", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            return .retryAt(retryAt)
        }
    }

    /// Backfills every app with Server API keys; failures are logged (the sweep is the safety net).
    public func backfill() async {
        let backfill = NotificationBackfill(storage: storage, options: options, logger: logger)
        for app in apps.apps {
            guard let client = app.serverAPI else { continue }
            do throws(ReconciliationError) {
                let applied = try await backfill.run(pipeline(for: app), client: client, now: clock.now)
                logger.info("notification history backfilled", metadata: ["app": "\(app.id)", "applied": "\(applied)"])
            } catch {
                logger.error("notification history backfill failed", metadata: ["app": "\(app.id)", "error": "\(error)"])
            }
        }
    }
}

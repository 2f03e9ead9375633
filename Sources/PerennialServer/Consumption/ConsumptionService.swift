public import Foundation
public import Logging
public import PerennialAppStore
public import PerennialCore
public import PerennialStorage
public import ServiceLifecycle

/// The consumption job: answers each pending refund consumption request with Send Consumption
/// Information (v2) as the app's ``ConsumptionPolicy`` says, inside Apple's 12-hour window.
///
/// Requests are leased (``PerennialStorage/ConsumptionStore``), so instances share the work and an
/// answer is sent by one of them. Apple's temporary failures (429, 5xx, the network, a rejected
/// token an operator can still fix) are retried with backoff until the window closes; a request
/// then still unanswered is marked `missed` — logged as an error, counted in
/// `perennial_consumption_requests_total{state="missed"}`, listed by the admin API and shown in the
/// timeline — never dropped. A refusal a retry would not change (a 4xx error body) marks it `failed`
/// with Apple's reason.
public struct ConsumptionService: Service {
    /// Runtime options of the job; tests shorten the intervals.
    public struct Options: Sendable {
        public var owner: String
        public var batchSize: Int
        public var leaseDuration: TimeInterval
        public var pollInterval: Duration
        /// Backoff between sends of one request (its attempt limit is not used: the window is).
        public var retryPolicy: RetryPolicy

        public init(
            owner: String = WebhookDeliveryOptions.processOwner(), batchSize: Int = 16, leaseDuration: TimeInterval = 120,
            pollInterval: Duration = .seconds(5), retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 16, baseDelay: .seconds(60), maxDelay: .seconds(3600), jitter: .equal)
        ) {
            self.owner = owner
            self.batchSize = batchSize
            self.leaseDuration = leaseDuration
            self.pollInterval = pollInterval
            self.retryPolicy = retryPolicy
        }
    }

    /// The refund requests and the apps' reports: all the job reads and writes.
    let storage: any ConsumptionStore
    let apps: AppRegistry
    let options: Options
    let clock: any TimeSource
    let metrics: ServerMetrics
    let logger: Logger

    public init(
        storage: any ConsumptionStore, apps: AppRegistry, options: Options = Options(), clock: any TimeSource = WallClock(),
        metrics: ServerMetrics = ServerMetrics(), logger: Logger = Logger(label: "perennial.consumption")
    ) {
        self.storage = storage
        self.apps = apps
        self.options = options
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            guard await runOnce() == 0 else { continue }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: options.pollInterval) }
        }
    }

    /// One round: claims the due requests and answers each. Returns how many were claimed; public
    /// so tests and tools can drive rounds one at a time.
    public func runOnce() async -> Int {
        let due: [RefundRequestRecord]
        do {
            due = try await storage.claimDueConsumptionRequests(
                owner: options.owner, limit: options.batchSize, leaseFor: options.leaseDuration, now: clock.now)
        } catch {
            logger.error("cannot claim consumption requests", metadata: ["error": "\(error)"])
            return 0
        }
        for request in due { await answer(request) }
        return due.count
    }

    /// Sends the answer to one claimed request and records what came of it.
    func answer(_ claimed: RefundRequestRecord) async {
        var request = claimed
        let now = clock.now
        let app = apps.apps.first { $0.bundleID == request.appBundleID }
        guard now < request.deadline else {
            request.state = .missed
            request.lastError = request.lastError ?? "no answer was sent"
            return await record(request, .consumptionFailed, state: "missed", now: now)
        }
        guard let app, let policy = app.consumption, let client = app.serverAPI else {
            request.state = .notConfigured
            return await record(request, .consumptionFailed, state: "notConfigured", now: now)
        }
        var report: ConsumptionReport?
        if let user = request.appUserID {
            report = try? await storage.consumptionReport(of: user, appBundleID: request.appBundleID)
        }
        let answer = policy.answer(to: request, report: report)
        request.attempts += 1
        do throws(AppStoreServerAPIError) {
            let body = try ServerAPIRequestBody.encoding(
                ConsumptionRequest(
                    customerConsented: answer.customerConsented, consumptionPercentage: answer.consumptionPercentage,
                    deliveryStatus: DeliveryStatus(rawValue: answer.deliveryStatus),
                    refundPreference: answer.refundPreference.map(RefundPreference.init(rawValue:)), sampleContentProvided: answer.sampleContentProvided))
            try await client.sendWithoutBody(.consumption(transactionID: request.transactionID, body: body))
            request.state = .answered
            request.answer = answer
            request.answeredAt = now
            request.lastError = nil
            await record(request, .consumptionAnswered, state: "answered", now: now)
        } catch {
            request.lastError = error.description
            var random = SystemRandomNumberGenerator()
            guard Self.isTemporary(error), let next = options.retryPolicy.nextAttempt(afterFailedAttempt: request.attempts, at: now, using: &random)
            else {
                request.state = .failed
                return await record(request, .consumptionFailed, state: "failed", now: now)
            }
            // The last try is at the window's end at the latest; a request claimed after it is missed.
            request.nextAttemptAt = min(next, request.deadline.addingTimeInterval(-1))
            if request.nextAttemptAt <= now { request.nextAttemptAt = request.deadline }
            metrics.recordConsumptionRequest(state: "retried")
            logger.warning(
                "consumption information not taken; will retry",
                metadata: ["transactionId": "\(request.transactionID)", "attempt": "\(request.attempts)", "retryAt": "\(request.nextAttemptAt)",
                    "error": "\(error)"])
            _ = try? await storage.updateConsumptionRequest(request, heldBy: options.owner, audit: nil)
        }
    }

    private func record(_ request: RefundRequestRecord, _ kind: AuditKind, state: String, now: Date) async {
        metrics.recordConsumptionRequest(state: state)
        let metadata: Logger.Metadata = [
            "app": "\(request.appBundleID)", "transactionId": "\(request.transactionID)", "state": "\(state)",
            "error": "\(request.lastError ?? "")",
        ]
        if request.state == .answered {
            logger.info("consumption information sent", metadata: metadata)
        } else {
            logger.error("refund consumption request left unanswered", metadata: metadata.merging(["deadline": "\(request.deadline)"]) { $1 })
        }
        do {
            _ = try await storage.updateConsumptionRequest(request, heldBy: options.owner, audit: request.audit(kind, at: now))
        } catch {
            logger.error("cannot record the consumption request", metadata: metadata.merging(["storageError": "\(error)"]) { $1 })
        }
    }

    /// Whether a later try may succeed. The client has already retried what Apple calls temporary
    /// and gives up on it as `retriesExhausted`. Over a 12-hour window more is worth another try: a
    /// 5xx even with a code Apple calls final (its server may recover), and a rejected token or key,
    /// which an operator can fix. A 4xx is Apple refusing the request itself.
    static func isTemporary(_ error: AppStoreServerAPIError) -> Bool {
        switch error {
        case .retriesExhausted, .rateLimited, .transport, .unauthorized, .signing: true
        case .api(let status, _, _), .unexpectedResponse(let status, _): status >= 500
        case .decoding, .invalidRequest: false
        }
    }
}

public import Logging
public import PerennialCore
public import PerennialStorage

/// What the routes share: the apps, the storage (injected: SQLite or PostgreSQL, the server does
/// not care), the time source the server judges subscriptions at, the metrics registry, the admin key and the webhook job's wake-up.
public struct ServerDependencies: Sendable {
    public var apps: AppRegistry
    public var storage: any SubscriberStorage
    /// The server's "now": every answer and apply is computed at this instant.
    public var clock: any TimeSource
    public var metrics: ServerMetrics
    /// The admin keys; with none, the admin routes answer 401.
    public var adminKeys: AdminKeys
    public var logger: Logger
    /// Wakes the webhook job when an apply or an admin re-queue made a delivery due, so it starts
    /// at once.
    public var webhookWakeUp: WebhookWakeUp
    /// Sends an operator's test event to an endpoint, as the webhook job sends its deliveries.
    public var webhookSender: WebhookSender
    /// Timeouts, caps and rates (``ServerLimits``).
    public var limits: ServerLimits
    /// The rates and failure back-offs of ``limits``, counted in this process.
    let throttle: RequestThrottle
    /// The real time of the machine, which the dashboard's sessions expire by and the throttle
    /// counts in, while ``clock`` may be a simulated one (`serve --simulator`).
    let wallClock: any TimeSource

    public init(
        apps: AppRegistry, storage: any SubscriberStorage, clock: any TimeSource = WallClock(), metrics: ServerMetrics = ServerMetrics(),
        adminKeys: AdminKeys = .none, logger: Logger = Logger(label: "perennial.server"), webhookWakeUp: WebhookWakeUp = WebhookWakeUp(),
        webhookSender: WebhookSender = WebhookSender(), limits: ServerLimits = ServerLimits(),
        wallClock: any TimeSource = WallClock()
    ) {
        self.apps = apps
        self.storage = storage
        self.clock = clock
        self.metrics = metrics
        self.adminKeys = adminKeys
        self.logger = logger
        self.webhookWakeUp = webhookWakeUp
        self.webhookSender = webhookSender
        self.limits = limits
        self.wallClock = wallClock
        self.throttle = RequestThrottle(limits: limits, clock: wallClock)
    }

    /// The figures of docs/analytics.md (metrics API, dashboard, `/metrics`).
    public var analytics: Analytics {
        Analytics(apps: apps, storage: storage, clock: clock)
    }

    /// The evidence pipeline of `app`.
    public func pipeline(for app: AppContext) -> EvidencePipeline {
        EvidencePipeline(app: app, storage: storage, webhookWakeUp: webhookWakeUp, metrics: metrics, logger: logger)
    }

    /// The middleware in front of the admin routes that need `scope`.
    func adminAuthentication(requiring scope: AdminScope) -> AdminAuthentication {
        AdminAuthentication(dependencies: self, requiring: scope)
    }
}

public import Logging
public import PerennialStorage

/// What the routes share: the apps, the storage (injected: SQLite or PostgreSQL, the server does
/// not care), the clock, the metrics registry and the admin key.
public struct ServerDependencies: Sendable {
    public var apps: AppRegistry
    public var storage: any SubscriberStorage
    public var clock: ServerClock
    public var metrics: ServerMetrics
    /// The admin routes' secret key as bytes; nil disables the admin routes.
    public var adminKey: [UInt8]?
    public var logger: Logger
    /// The outbox the webhook admin routes list and re-queue; nil when the storage keeps no
    /// delivery state (the routes answer 501).
    public var webhookOutbox: (any WebhookOutbox)?
    /// Wakes the webhook job after an admin re-queue, so the delivery starts at once.
    public var webhookWakeUp: WebhookWakeUp

    public init(
        apps: AppRegistry, storage: any SubscriberStorage, clock: ServerClock = .system, metrics: ServerMetrics = ServerMetrics(),
        adminKey: [UInt8]? = nil, logger: Logger = Logger(label: "perennial.server"), webhookOutbox: (any WebhookOutbox)? = nil,
        webhookWakeUp: WebhookWakeUp = WebhookWakeUp()
    ) {
        self.apps = apps
        self.storage = storage
        self.clock = clock
        self.metrics = metrics
        self.adminKey = adminKey
        self.logger = logger
        self.webhookOutbox = webhookOutbox
        self.webhookWakeUp = webhookWakeUp
    }
}

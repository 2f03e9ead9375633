public import Foundation
public import Hummingbird
public import Logging
public import PerennialAppStore
public import PerennialStorage
public import ServiceLifecycle
import AsyncHTTPClient
import HummingbirdCore
public import PerennialCore

/// The router of every Perennial route, over `dependencies`: tests drive it in-process, and
/// ``buildApplication(configuration:storage:environment:transport:metrics:clock:wallClock:logger:services:servicesAfterMigration:webhookDelivery:webhookTransport:reconciliation:consumption:massExtensions:imports:migrate:)``
/// serves it.
public func buildRouter(dependencies: ServerDependencies) -> Router<PerennialRequestContext> {
    let router = Router(context: PerennialRequestContext.self)
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: RequestMetricsMiddleware(metrics: dependencies.metrics))
    router.add(middleware: UnmatchedRouteMiddleware())
    router.add(middleware: BodyLimitMiddleware(maxBodyBytes: dependencies.limits.maxBodyBytes))
    OperationsRoutes(dependencies: dependencies).add(to: router)
    ClientRoutes(dependencies: dependencies).add(to: router)
    AppleRoutes(dependencies: dependencies).add(to: router)
    RetentionRoutes(dependencies: dependencies).add(to: router)
    AdminRoutes(dependencies: dependencies).add(to: router)
    WebhookAdminRoutes(dependencies: dependencies).add(to: router)
    WebhookEndpointRoutes(dependencies: dependencies).add(to: router)
    OfferingRoutes(dependencies: dependencies).add(to: router)
    ExperimentRoutes(dependencies: dependencies).add(to: router)
    RetentionRuleRoutes(dependencies: dependencies).add(to: router)
    SupportRoutes(dependencies: dependencies).add(to: router)
    PrivacyRoutes(dependencies: dependencies).add(to: router)
    GrantRoutes(dependencies: dependencies).add(to: router)
    MassExtensionRoutes(dependencies: dependencies).add(to: router)
    ImportRoutes(dependencies: dependencies).add(to: router)
    AnalyticsRoutes(dependencies: dependencies).add(to: router)
    DashboardRoutes(
        dependencies: dependencies, sessions: DashboardSessions(store: dependencies.storage, keys: dependencies.adminKeys),
        wallClock: dependencies.wallClock
    ).add(to: router)
    return router
}

/// The `perennial serve` application: resolves the configured apps, migrates `storage` before the
/// server accepts connections, and serves the router; `services` (a PostgreSQL pool, background
/// jobs) run beside it in the same service group and shut down gracefully with it.
///
/// - Parameters:
///   - storage: the injected back end (SQLite or PostgreSQL); the command chooses it.
///   - environment: where `"env:NAME"` secrets are read.
///   - transport: how verifyReceipt and the App Store Server API are reached; AsyncHTTPClient's
///     shared client by default, an in-process simulator's transport in tests.
///   - clock: the server's "now", at which subscriptions are judged and jobs claim their work.
///   - wallClock: the real time, for what is judged outside the server (App Store Server API
///     tokens, webhook signature dates, Apple's rate limit); ``WallClock`` but in tests.
///   - servicesAfterMigration: services that use the database (the demo's seeding), started once
///     it is migrated: on a fresh PostgreSQL database, the seeding raced the migrations and lost.
///   - webhookDelivery: how the webhook job delivers events; nil turns it off. It claims nothing
///     while no app has an endpoint (the file's or one added through the admin API).
///   - webhookTransport: how webhook endpoints are reached; AsyncHTTPClient by default.
///   - reconciliation: how the reconciliation job asks Apple; nil turns it off. The job runs when
///     an app can ask Apple (Server API keys, or verifyReceipt with a shared secret).
///   - consumption: how the consumption job answers refund requests; nil turns it off. The job
///     runs when an app has a consumption policy.
///   - massExtensions: how the job follows mass extensions; nil turns it off. The job runs when an
///     app has a Server API key.
///   - imports: how the job runs the admin API's imports; nil turns it off.
///   - migrate: false when the operator migrates separately (`perennial serve --no-migrate`):
///     the server then only checks that the schema is current, and does not start otherwise.
/// - Throws: ``ConfigurationError`` when an app's configuration cannot be used.
public func buildApplication(
    configuration: ServerConfiguration,
    storage: any SubscriberStorage,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: (any AppStoreHTTPTransport)? = nil,
    metrics: ServerMetrics = ServerMetrics(),
    clock: any TimeSource = WallClock(),
    wallClock: any TimeSource = WallClock(),
    logger: Logger = Logger(label: "perennial.server"),
    services: [any Service] = [],
    servicesAfterMigration: [any Service] = [],
    webhookDelivery: WebhookDeliveryOptions? = WebhookDeliveryOptions(),
    webhookTransport: (any AppStoreHTTPTransport)? = nil,
    reconciliation: ReconciliationOptions? = ReconciliationOptions(),
    consumption: ConsumptionService.Options? = ConsumptionService.Options(),
    massExtensions: MassExtensions.Options? = MassExtensions.Options(),
    imports: ImportJobs.Options? = ImportJobs.Options(),
    migrate: Bool = true
) throws(ConfigurationError) -> some ApplicationProtocol {
    let appleTransport = transport ?? AsyncHTTPClientTransport()
    let apps = try AppRegistry(configuration: configuration, environment: environment, transport: appleTransport, wallClock: wallClock)
    let adminKeys = try AdminKeys(configuration: configuration, environment: environment)
    if apps.apps.isEmpty {
        logger.warning("no app is configured: only health and metrics answer; see docs/configuration.md")
    }
    for app in apps.apps {
        logger.info(
            "serving app",
            metadata: [
                "app": "\(app.id)", "bundleId": "\(app.bundleID)", "environments": "\(app.environments.map(\.rawValue))",
                "receipts": "\(app.verifier.usesVerifyReceipt ? "verifyReceipt" : app.verifier.receipts != nil ? "local" : "off")",
                "userTokens": "\(app.userTokens != nil)",
            ])
        if app.environments.contains(.production) && app.userTokens == nil {
            // The client key ships inside the app, so it proves nothing about who asks.
            logger.warning(
                "app \(app.id) accepts Production without user tokens: anyone holding its public client key can read any user's state by id; set userTokens (docs/configuration.md)",
                metadata: ["app": "\(app.id)"])
        }
    }
    let webhookWakeUp = WebhookWakeUp()
    var jobs: [any Service] = [AnalyticsDefinitionsUpgrade(storage: storage, apps: apps, clock: clock, logger: logger)]
    if let webhookDelivery, !apps.apps.isEmpty {
        jobs.append(
            WebhookDeliveryService(
                outbox: storage, endpoints: storage, apps: apps, options: webhookDelivery, wakeUp: webhookWakeUp, transport: webhookTransport,
                clock: clock, wallClock: wallClock, metrics: metrics, logger: logger))
    }
    if let reconciliation, apps.apps.contains(where: { $0.serverAPI != nil || $0.verifier.usesVerifyReceipt }) {
        jobs.append(
            ReconciliationService(
                storage: storage, apps: apps, options: reconciliation, clock: clock, wallClock: wallClock, webhookWakeUp: webhookWakeUp,
                metrics: metrics, logger: logger))
    }
    if let consumption, apps.apps.contains(where: { $0.consumption != nil }) {
        jobs.append(ConsumptionService(storage: storage, apps: apps, options: consumption, clock: clock, metrics: metrics, logger: logger))
    }
    // Jobs wait for the migrations (see ``MigrationGate``); the server itself only listens after them.
    let migrated = MigrationGate()
    let dependencies = ServerDependencies(
        apps: apps, storage: storage, clock: clock, metrics: metrics, adminKeys: adminKeys, logger: logger, webhookWakeUp: webhookWakeUp,
        webhookSender: WebhookSender(
            transport: webhookTransport, requestTimeout: (webhookDelivery ?? WebhookDeliveryOptions()).requestTimeout, wallClock: wallClock),
        limits: configuration.limits, wallClock: wallClock)
    if let massExtensions, apps.apps.contains(where: { $0.serverAPI != nil }) {
        jobs.append(MassExtensions(dependencies: dependencies, options: massExtensions))
    }
    if let imports, !apps.apps.isEmpty {
        // The imports' own apps: the same, asking Apple through a transport that paces them.
        let paced = try AppRegistry(
            configuration: configuration, environment: environment, transport: ApplePacing(appleTransport, rates: imports.rates, clock: wallClock),
            wallClock: wallClock)
        jobs.append(ImportJobs(dependencies: dependencies, pacedApps: paced, options: imports))
    }
    let limits = configuration.limits
    let connectionCap = limits.connectionCap(openFiles: OpenFileLimit.current ?? limits.maxConnections + limits.reservedFileDescriptors)
    logger.info("connection limits", metadata: ["maxConnections": "\(connectionCap)", "openFiles": "\(OpenFileLimit.current.map(String.init) ?? "?")"])
    var application = Application(
        router: buildRouter(dependencies: dependencies),
        server: .http1(configuration: HTTP1Channel.Configuration(additionalChannelHandlers: [ConnectionGuard.handler(limits: limits, logger: logger)])),
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port), serverName: "perennial",
            availableConnectionsDelegate: MaximumAvailableConnections(connectionCap, logger: logger)),
        services: services + (jobs + servicesAfterMigration).map { AfterMigration(job: $0, gate: migrated) },
        logger: logger)
    application.beforeServerStarts {
        if migrate { try await storage.migrate() } else { try await storage.schemaStatus().requireCurrent() }
        await migrated.open()
        logger.info(migrate ? "database migrated" : "database schema is current")
    }
    return application
}

import AsyncHTTPClient
public import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOHTTP1
import PerennialCore
public import PerennialAppStore
import PerennialSandbox
public import PerennialServer
import PerennialSQLite
public import PerennialSimulator
public import PerennialStorage
import ServiceLifecycle

/// A whole Perennial deployment on loopback for end-to-end tests: the App Store simulator and a
/// Perennial server on SQLite, wired by ``PerennialSandbox/SandboxWiring`` and talking only over
/// HTTP — notifications POSTed to the server, verifyReceipt and the Server API called on the
/// simulator — so a test exercises exactly the code a deployment runs.
///
/// Time is the simulator's virtual clock, which the server follows: move it with ``advance(by:)``
/// or the simulator's HTTP API (`/simulator/v1/clock/advance`, `advance` actions); calling
/// `simulator.advance` directly moves the server's clock only when a notification goes out. It
/// starts at 2026-01-01T00:00:00Z; sandbox time
/// scale (a month lasts 5 minutes, a year 1 hour), 16-day billing grace period (scaled), Apple's
/// notification retries on. The catalog is ``LiveCatalog`` unless `catalogJSON` is given.
public final class LiveSystem: Sendable {
    /// The server's base URL, e.g. `http://127.0.0.1:PORT`.
    public let serverURL: URL
    /// The simulator's base URL (`/simulator/v1/…`, `/verifyReceipt`, `/inApps/…`).
    public let simulatorURL: URL
    /// The app's client key for `/v1` (`Authorization: Bearer …`).
    public let publicKey: String
    /// The server's admin key.
    public let adminKey: String
    /// The app's id in the server's URLs.
    public let appID: String
    /// The bundle id the simulator's device runs.
    public let bundleID: String
    /// The simulator itself, for what the HTTP API does not offer (faults, history).
    public let simulator: AppStoreSimulator
    /// The server's database, to check stored evidence and the outbox directly.
    public let storage: any SubscriberStorage
    /// The HS256 secret user tokens are signed with when started with `userTokens: true`.
    public let userTokenSecret: String?

    private let clock: LiveClock
    private let serverPort: Int
    private let configuration: ServerConfiguration
    private let reconciliation: ReconciliationOptions?
    private let webhookDelivery: WebhookDeliveryOptions?
    private let simulatorService: RunningService
    private let server: NIOLockedValueBox<RunningService?>
    private let logger: Logger

    private init(
        serverURL: URL, simulatorURL: URL, publicKey: String, adminKey: String, appID: String, bundleID: String,
        simulator: AppStoreSimulator, storage: any SubscriberStorage, userTokenSecret: String?, clock: LiveClock, serverPort: Int,
        configuration: ServerConfiguration, reconciliation: ReconciliationOptions?, webhookDelivery: WebhookDeliveryOptions?,
        simulatorService: RunningService, logger: Logger
    ) {
        self.serverURL = serverURL
        self.simulatorURL = simulatorURL
        self.publicKey = publicKey
        self.adminKey = adminKey
        self.appID = appID
        self.bundleID = bundleID
        self.simulator = simulator
        self.storage = storage
        self.userTokenSecret = userTokenSecret
        self.clock = clock
        self.serverPort = serverPort
        self.configuration = configuration
        self.reconciliation = reconciliation
        self.webhookDelivery = webhookDelivery
        self.simulatorService = simulatorService
        self.server = NIOLockedValueBox(nil)
        self.logger = logger
    }

    /// Starts a simulator and a server wired to each other, both on free loopback ports, the
    /// server on a fresh SQLite database in a temporary directory.
    ///
    /// - Parameters:
    ///   - transferPolicy: the app's policy when a second user presents a purchase.
    ///   - faults: the simulator's notification delivery faults from the start.
    ///   - userTokens: requires HS256 user tokens (secret ``userTokenSecret``) on `/v1`.
    ///   - catalogJSON: another catalog (docs/catalog.md); its first app is the device's.
    ///   - billingGracePeriodDays: the app's billing grace period in unscaled days; nil for none.
    ///   - serverAPI: gives the server the simulator's App Store Server API key; without it,
    ///     reconciliation asks through verifyReceipt.
    ///   - reconciliation: the server's reconciliation job (its poll interval is wall time); nil
    ///     turns it off.
    ///   - webhooks: where the server delivers events, with `webhookDelivery`'s job (retries are
    ///     due on the server's clock, the simulator's virtual one).
    ///   - serverPort: the server's port, when something must know it before the start (a second
    ///     simulator's notification URLs); a free one by default.
    ///   - roots: more roots (DER) the app trusts, of a second simulator playing Apple.
    public static func start(
        transferPolicy: TransferPolicy = .transfer, faults: DeliveryFaults = .none, userTokens: Bool = false,
        catalogJSON: String = LiveCatalog.json, billingGracePeriodDays: Int? = 16, serverAPI: Bool = true,
        reconciliation: ReconciliationOptions? = ReconciliationOptions(), webhooks: [WebhookEndpoint] = [],
        webhookDelivery: WebhookDeliveryOptions? = WebhookDeliveryOptions(), serverPort: Int? = nil, alsoTrusting roots: [Data] = [],
        answerSigningKey: SecretValue? = nil, consumption: ConsumptionPolicy? = nil, integrations: [IntegrationConfiguration] = [],
        retention: RetentionPolicy? = nil
    ) async throws -> LiveSystem {
        var logger = Logger(label: "perennial.live")
        logger.logLevel = .error
        let catalog = try CatalogLoader.load(json: Data(catalogJSON.utf8))
        guard let app = catalog.apps.first else { throw LiveSystemError.catalogNamesNoApp }
        let serverPort = try serverPort ?? FreePort.loopback()
        let serverURL = try loopbackURL(port: serverPort)
        let appID = "live"
        let wiring = SandboxWiring(appID: appID, bundleID: app.bundleID, appAppleID: app.appAppleID, serverURL: serverURL)

        let start = Self.firstInstant
        let clock = LiveClock(start)
        var setup = SimulatorSetup(
            catalog: catalog,
            prices: Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.id, Money(milliUnits: 9_990, currency: "USD")) }),
            bundleID: app.bundleID, billingGracePeriodDays: billingGracePeriodDays, time: .virtual(start: start),
            wire: wiring.wire, targets: wiring.notificationTargets, faults: faults, serverAPICredentials: wiring.serverAPICredentials,
            promotionalOfferKeys: wiring.promotionalOfferKeys, transport: ClockSyncingTransport(clock: clock, base: HTTPNotificationTransport()))
        setup.monthlyCommitmentPrices = [LiveCatalog.premiumYearly: LiveCatalog.premiumYearlyMonthlyPrice]
        let simulator = try AppStoreSimulator(setup: setup)
        clock.follow(simulator)
        let (simulatorService, simulatorPort) = try await startSimulator(simulator, clock: clock, logger: logger)
        let simulatorURL = try loopbackURL(port: simulatorPort)

        let publicKey = "pk_live_\(UUID().uuidString.prefix(8).lowercased())"
        let adminKey = "sk_live_\(UUID().uuidString.lowercased())"
        let userTokenSecret = userTokens ? "user-token-secret-\(UUID().uuidString)" : nil
        var appConfiguration = try wiring.appConfiguration(
            pki: simulator.pki, simulatorURL: simulatorURL, catalog: catalog, publicKeys: [SecretValue(publicKey)],
            transferPolicy: transferPolicy, userTokens: userTokenSecret.map { UserTokenConfiguration(hs256Secret: SecretValue($0)) })
        if !serverAPI { appConfiguration.serverAPI = nil }
        appConfiguration.webhooks = webhooks
        appConfiguration.trustedRoots += roots.map { .der($0) }
        appConfiguration.answerSigningKey = answerSigningKey
        appConfiguration.consumption = consumption
        appConfiguration.integrations = integrations
        appConfiguration.retention = retention
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let storage = try SQLiteStorage(path: directory.appendingPathComponent("perennial.sqlite").path)
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: serverPort, databaseURL: "sqlite:\(directory.path)/perennial.sqlite", adminKey: SecretValue(adminKey),
            logLevel: "error", apps: [appConfiguration])

        let system = LiveSystem(
            serverURL: serverURL, simulatorURL: simulatorURL, publicKey: publicKey, adminKey: adminKey, appID: appID, bundleID: app.bundleID,
            simulator: simulator, storage: storage, userTokenSecret: userTokenSecret, clock: clock, serverPort: serverPort,
            configuration: configuration, reconciliation: reconciliation, webhookDelivery: webhookDelivery,
            simulatorService: simulatorService, logger: logger)
        do {
            try await system.startServer()
        } catch {
            await system.stop()
            throw error
        }
        return system
    }

    /// Where the simulator's virtual clock (and the server's) starts: 2026-01-01 00:00 UTC.
    public static let firstInstant = Date(timeIntervalSince1970: 1_767_225_600)

    /// The server's clock: the simulator's instant as of its last move.
    public var now: Date { clock.now }

    /// Moves time forward by `seconds`: renewals, expiries and notification deliveries (and
    /// retries) due by then happen in time order, and the server's clock follows.
    @discardableResult
    public func advance(by seconds: TimeInterval) async throws -> SimulatorStep {
        let step = try await simulator.advance(by: seconds)
        await clock.synchronize()
        return step
    }

    /// Stops only the server, so notifications fail and the simulator's Apple-style retries apply.
    public func stopServer() async {
        guard let running = server.withLockedValue({ value in defer { value = nil }; return value }) else { return }
        await running.stop()
    }

    /// Starts the server again on the same port and database; returns once it answers.
    public func startServer() async throws {
        guard server.withLockedValue({ $0 }) == nil else { return }
        let application = try buildApplication(
            configuration: configuration, storage: storage, environment: [:], clock: clock, logger: logger,
            webhookDelivery: webhookDelivery, reconciliation: reconciliation,
            consumption: ConsumptionService.Options(
                pollInterval: .milliseconds(100), retryPolicy: RetryPolicy(maxAttempts: 16, baseDelay: .seconds(60), maxDelay: .seconds(600), jitter: .equal)))
        let running = RunningService.run(application, logger: logger)
        server.withLockedValue { $0 = running }
        try await waitUntilServerAnswers(running)
    }

    /// The App Store Server API client the server itself uses (its key, the simulator's URL), for
    /// a test acting as the developer on the simulated App Store (Retention Messaging setup).
    public func developerServerAPI() throws -> AppStoreServerAPIClient {
        guard let app = configuration.apps.first,
            let client = try AppContext(configuration: app, environment: [:], transport: AsyncHTTPClientTransport()).serverAPI
        else {
            throw LiveSystemError.catalogNamesNoApp
        }
        return client
    }

    /// Runs `body` on the system and stops it afterwards, whether `body` threw or not.
    public func stopping(after body: (LiveSystem) async throws -> Void) async throws {
        do {
            try await body(self)
            await stop()
        } catch {
            await stop()
            throw error
        }
    }

    /// Stops the server and the simulator.
    public func stop() async {
        await stopServer()
        await simulatorService.stop()
    }

    private static func loopbackURL(port: Int) throws -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw LiveSystemError.noFreePort }
        return url
    }

    private static func startSimulator(
        _ simulator: AppStoreSimulator, clock: LiveClock, logger: Logger
    ) async throws -> (RunningService, Int) {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: ClockSyncingResponder(base: buildSimulatorRouter(simulator: simulator).buildResponder(), clock: clock),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let running = RunningService.run(application, logger: logger, onExit: { continuation.finish() })
        for await port in ports where port > 0 {
            return (running, port)
        }
        await running.stop()
        throw LiveSystemError.simulatorDidNotStart
    }

    private func waitUntilServerAnswers(_ running: RunningService) async throws {
        let health = serverURL.appendingPathComponent("health").appendingPathComponent("live").absoluteString
        for _ in 0..<400 {
            if let response = try? await HTTPClient.shared.execute(HTTPClientRequest(url: health), timeout: .seconds(2)),
                response.status == .ok
            {
                return
            }
            if running.hasExited { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LiveSystemError.serverDidNotStart(port: serverPort)
    }
}

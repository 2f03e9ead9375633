import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialSQLite
import PerennialStorage
import Testing

/// One Perennial server under test, built with ``buildApplication`` exactly as `perennial serve`
/// builds it, on a fresh SQLite file (or a given storage), trusting the simulator's roots.
struct ServerHarness {
    static let publicKey = "pk_test_demo"
    static let adminKey = "sk_test_admin"
    static let appID = "demo"

    /// How the app's posted receipts are verified.
    enum Receipts {
        case none
        case local
        case verifyReceipt(SimulatedVerifyReceipt)
    }

    let storage: any SubscriberStorage
    let clock: TestClock
    let metrics: ServerMetrics
    let application: any ApplicationProtocol

    init(
        storage: (any SubscriberStorage)? = nil,
        policy: TransferPolicy = .transfer,
        receipts: Receipts = .local,
        environments: [AppStoreEnvironment] = [.sandbox],
        userTokens: UserTokenConfiguration? = nil,
        offerKey: P256.Signing.PrivateKey? = nil,
        offerIssuerID: String? = nil,
        retention: RetentionPolicy? = nil,
        apps: [AppConfiguration]? = nil,
        adminKeys: [AdminKeyConfiguration] = [],
        transport apple: (any AppStoreHTTPTransport)? = nil,
        limits: ServerLimits = ServerHarness.unthrottled,
        wallClock: (any TimeSource)? = nil,
        logger: Logger = Logger(label: "perennial.server")
    ) async throws {
        let pki = try StoreWorld.sharedPKI.get()
        let storage = try storage ?? Self.temporarySQLite()
        try await storage.migrate()
        // V1 notifications authenticate with the shared secret (read from the environment, as in
        // production), whichever way receipts are verified.
        var receiptConfiguration = ReceiptConfiguration(sharedSecret: "env:TEST_SHARED_SECRET", mode: .verifyReceipt)
        var transport: (any AppStoreHTTPTransport)? = apple
        switch receipts {
        case .none:
            receiptConfiguration.mode = nil
            receiptConfiguration.sharedSecret = nil
        case .local:
            guard let authority = pki.receipts else { throw NoReceiptAuthority() }
            receiptConfiguration.mode = .local
            receiptConfiguration.roots = [.certificates([authority.root])]
        case .verifyReceipt(let simulated):
            receiptConfiguration.productionURL = SimulatedVerifyReceipt.productionURL
            receiptConfiguration.sandboxURL = SimulatedVerifyReceipt.sandboxURL
            transport = simulated
        }
        var app = AppConfiguration(
            id: Self.appID, bundleID: StoreWorld.bundleID, appAppleID: 1_234_567_890, catalog: .catalog(StoreWorld.catalog),
            environments: environments, publicKeys: [SecretValue(Self.publicKey)], transferPolicy: policy,
            trustedRoots: [.certificates([pki.jws.root])], receipts: receiptConfiguration.sharedSecret == nil ? nil : receiptConfiguration,
            promotionalOffers: offerKey.map {
                SigningKeyConfiguration(keyID: "OFFERKEY1", privateKey: SecretValue($0.pemRepresentation), issuerID: offerIssuerID)
            },
            userTokens: userTokens)
        app.retention = retention
        let clock = TestClock(StoreWorld.start)
        let metrics = ServerMetrics()
        self.storage = storage
        self.clock = clock
        self.metrics = metrics
        self.application = try buildApplication(
            configuration: ServerConfiguration(
                port: 0, adminKey: SecretValue(Self.adminKey), adminKeys: adminKeys, apps: apps ?? [app], limits: limits),
            storage: storage, environment: ["TEST_SHARED_SECRET": StoreWorld.sharedSecret], transport: transport, metrics: metrics,
            clock: clock, wallClock: wallClock ?? WallClock(), logger: logger,
            // Requests only: a reconciliation round racing a test's requests would ask Apple again,
            // and an import job would claim the import a test runs itself (the jobs have their own
            // tests, in Jobs/ and Import/).
            reconciliation: nil, imports: nil)
    }

    struct NoReceiptAuthority: Error {}

    /// The default limits without rates or back-offs: tests send bursts no client would, and the
    /// throttle has its own tests (``ThrottleTests``).
    static let unthrottled = ServerLimits(
        clientRequestsPerSecondPerAddress: 1e9, clientRequestsPerSecondPerKey: 1e9, clientBurst: 1e9, failuresBeforeBackoff: 1_000_000)

    static func temporarySQLite() throws -> SQLiteStorage {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SQLiteStorage(path: directory.appendingPathComponent("perennial.sqlite").path)
    }

    /// Runs `body` against the application in-process.
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await application.test(.router, body)
    }

    /// Runs `body` against the application listening on a loopback port, which it is given.
    func live(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await application.test(.live) { client in try await body(try #require(client.port)) }
    }
}

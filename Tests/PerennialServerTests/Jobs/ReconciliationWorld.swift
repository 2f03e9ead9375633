import Crypto
import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// A Perennial app and storage facing a ``SimulatedApple``: purchases reach Perennial, renewals
/// happen in the store, and the reconciliation service is driven one round at a time on the test
/// clock. How Apple is asked decides the app's configuration.
struct ReconciliationWorld {
    enum Asking: String, CaseIterable, Sendable {
        case serverAPI
        case verifyReceipt
    }

    static let user: AppUserID = "alice"

    let storage: any SubscriberStorage
    let apple: SimulatedApple
    let app: AppContext
    let apps: AppRegistry
    let clock: TestClock
    /// The app's pipeline, for evidence the test applies itself.
    var pipeline: EvidencePipeline {
        EvidencePipeline(app: app, storage: storage, webhookWakeUp: WebhookWakeUp(), metrics: ServerMetrics(), logger: Logger(label: "test"))
    }
    let service: ReconciliationService

    init(asking: Asking, storage: (any SubscriberStorage & ReconciliationSchedule)? = nil) async throws {
        let storage = try storage ?? ServerHarness.temporarySQLite()
        try await storage.migrate()
        let clock = TestClock(StoreWorld.start)
        // A production store with real months, so a renewal's margin passes before the next one.
        var world = try StoreWorld(environment: .production)
        world.state = SimulatorState(
            configuration: SimulatorConfiguration(
                catalog: StoreWorld.catalog, prices: world.state.configuration.prices, timeScale: .production, environment: .production),
            start: StoreWorld.start)
        let apple = try SimulatedApple(store: SimulatedStore(world: world), clock: clock)
        let pki = try StoreWorld.sharedPKI.get()
        let configuration = AppConfiguration(
            id: "demo", bundleID: StoreWorld.bundleID, appAppleID: 1_234_567_890, catalog: .catalog(StoreWorld.catalog),
            environments: [.production], publicKeys: [SecretValue(ServerHarness.publicKey)], trustedRoots: [.certificates([pki.jws.root])],
            receipts: asking == .verifyReceipt
                ? ReceiptConfiguration(
                    sharedSecret: SecretValue(StoreWorld.sharedSecret), productionURL: SimulatedVerifyReceipt.productionURL,
                    sandboxURL: SimulatedVerifyReceipt.sandboxURL, mode: .verifyReceipt)
                : nil,
            serverAPI: asking == .serverAPI
                ? SigningKeyConfiguration(
                    keyID: SimulatedApple.keyID, privateKey: SecretValue(apple.key.pemRepresentation), issuerID: SimulatedApple.issuerID,
                    baseURL: SimulatedApple.serverAPIBaseURL)
                : nil)
        apps = try AppRegistry(
            configuration: ServerConfiguration(port: 0, apps: [configuration]), environment: [:], transport: apple)
        self.storage = storage
        self.apple = apple
        self.app = apps.apps[0]
        self.clock = clock
        // The first sweep runs at the start, before any purchase, as on a fresh server.
        _ = try await storage.scheduleSweep(now: clock.now, interval: 86_400)
        service = ReconciliationService(
            storage: storage, apps: apps,
            options: ReconciliationOptions(owner: "test-owner", rateCapacity: 100, ratePerSecond: 100, retryBaseDelay: 60),
            clock: clock)
    }

    /// Alice buys the monthly subscription and her app posts it (a signed transaction, or the
    /// receipt when Apple is asked through verifyReceipt). Returns Apple's notifications.
    @discardableResult
    func purchase(asking: Asking) async throws -> [WireNotification] {
        let (signed, notifications) = try await apple.store.buy("pro.monthly")
        let posted: Evidence =
            switch asking {
            case .serverAPI: .signedTransaction(signed, presentedBy: Self.user)
            case .verifyReceipt: .receipt(try await apple.store.receipt(), presentedBy: Self.user)
            }
        let evidence = try #require(try await pipeline.normalized(posted, now: clock.now))
        _ = try await storage.apply(evidence, with: app.applier, now: clock.now)
        return notifications
    }

    /// The store renews once (production months; its notifications are dropped), and Perennial's
    /// clock moves past the period's end plus the reconciliation margin.
    func renewWithoutTelling() async throws -> [WireNotification] {
        let renewal = StoreWorld.start.addingTimeInterval(32 * 86_400)
        let step = try await apple.store.advance(to: renewal)
        clock.now = renewal
        return step.notifications
    }

    /// Alice's entitlements as Perennial computes them now.
    func entitlements() async throws -> [String] {
        let stored = try await storage.subscriber(Self.user, appBundleID: app.bundleID)
        return app.engine.view(of: stored.records, at: clock.now).activeEntitlementIDs.sorted()
    }

    /// The reconciliation entries of Alice's timeline, with their evidence.
    func reconciliationEntries() async throws -> [(entry: AuditEntry, evidence: StoredEvidence)] {
        var found: [(entry: AuditEntry, evidence: StoredEvidence)] = []
        for entry in try await storage.timeline(of: Self.user, appBundleID: app.bundleID) {
            guard let id = entry.evidenceID, let evidence = try await storage.evidence(id: id), evidence.kind == .reconciliation else { continue }
            found.append((entry, evidence))
        }
        return found
    }

    /// The failed checks of Alice's timeline (entries without evidence).
    func failedChecks() async throws -> [AuditDetail.CheckFailure] {
        try await storage.timeline(of: Self.user, appBundleID: app.bundleID).filter { $0.entry.kind == .reconciliationFailed && $0.evidenceID == nil }
            .compactMap(\.entry.detail.failure)
    }

    func runRound() async -> Int {
        var bucket = TokenBucket(capacity: 100, ratePerSecond: 100, start: clock.now)
        return await service.runOnce(bucket: &bucket)
    }
}

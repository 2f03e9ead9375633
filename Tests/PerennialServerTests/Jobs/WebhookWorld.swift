import Foundation
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialSQLite
import PerennialStorage

/// One app with webhook endpoints over a fresh storage, and purchases to apply: the setting of
/// the webhook delivery tests.
struct WebhookWorld {
    static let appID = "demo"
    static let secret = "whsec_test"
    static let endpoints = [URL(string: "https://hooks.example.com/a")!, URL(string: "https://hooks.example.com/b")!]

    let storage: any SubscriberStorage & WebhookOutbox
    let apps: AppRegistry
    let clock: TestClock

    init(storage: (any SubscriberStorage & WebhookOutbox)? = nil, endpoints: [URL] = WebhookWorld.endpoints) async throws {
        let storage = try storage ?? ServerHarness.temporarySQLite()
        try await storage.migrate()
        self.storage = storage
        self.apps = try AppRegistry(
            configuration: ServerConfiguration(port: 0, adminKey: SecretValue(ServerHarness.adminKey), apps: [try Self.configuration(endpoints: endpoints)]),
            environment: ["WEBHOOK_SECRET": Self.secret], transport: WebhookReceiver())
        self.clock = TestClock(StoreWorld.start)
    }

    static func configuration(endpoints: [URL] = WebhookWorld.endpoints) throws -> AppConfiguration {
        AppConfiguration(
            id: appID, bundleID: StoreWorld.bundleID, catalog: .catalog(StoreWorld.catalog), environments: [.sandbox],
            publicKeys: [SecretValue(ServerHarness.publicKey)], trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])],
            webhooks: endpoints.map { WebhookEndpoint(url: $0, secret: SecretValue("env:WEBHOOK_SECRET")) })
    }

    var app: AppContext { apps.apps[0] }

    /// `user` buys a monthly subscription `original`, `daysAgo` days before the clock: one
    /// `initialPurchase` event for the user.
    func purchase(_ original: String, by user: AppUserID, daysAgo: Double = 1) async throws {
        let purchased = clock.now.addingTimeInterval(-daysAgo * 86_400)
        let transaction = Transaction(
            transactionID: original, originalTransactionID: original, bundleID: StoreWorld.bundleID, productID: "pro.monthly",
            productType: .autoRenewable, subscriptionGroupID: "premium", purchaseDate: purchased, originalPurchaseDate: purchased,
            expiresDate: purchased.addingTimeInterval(30 * 86_400), reason: .purchase, environment: .sandbox,
            provenance: Provenance(source: .signedTransaction, versionDate: purchased, isSigned: true))
        let evidence = IncomingEvidence(
            appBundleID: StoreWorld.bundleID, kind: .signedTransaction, idempotencyKey: "purchase-\(original)", raw: Data(original.utf8),
            receivedAt: clock.now, records: EvidenceRecords(transactions: [transaction]), presentedBy: user, environment: .sandbox)
        _ = try await storage.apply(evidence, with: app.applier, now: clock.now)
    }

    func service(
        owner: String = "test-owner", retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 12, baseDelay: .seconds(60), maxDelay: .seconds(3600), jitter: .equal),
        receiver: WebhookReceiver, wakeUp: WebhookWakeUp = WebhookWakeUp(), metrics: ServerMetrics = ServerMetrics()
    ) -> WebhookDeliveryService {
        WebhookDeliveryService(
            outbox: storage, apps: apps,
            options: WebhookDeliveryOptions(owner: owner, leaseDuration: 120, pollInterval: .milliseconds(50), retryPolicy: retryPolicy),
            wakeUp: wakeUp, transport: receiver, clock: clock, metrics: metrics)
    }
}

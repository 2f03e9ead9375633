import Crypto
import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialSQLite
import PerennialStorage

/// `perennial import` against the simulator's App Store Server API in the same process, unpaced:
/// how many subscriptions a second the import itself brings in (Apple's rate limits, not this,
/// decide how long a real import takes: docs/import.md). A year of monthly renewals each
/// (13 transactions, one history page), imported into a SQLite file in WAL mode.
///
/// The floor is Apple's side alone: the simulator answering the two questions an import asks per
/// subscription (its transaction history and its statuses, signed), without verification or apply.
/// Sells the demo catalog, so it runs from the repository root.
enum ImportBenchmark {
    static let baseURL = URL(string: "https://api.bench.test")!

    /// Answers the Server API from the simulator, in process.
    struct InProcessAppStore: AppStoreHTTPTransport {
        let responder: ServerAPIResponder
        let simulator: AppStoreSimulator

        func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
            let answer = await responder.respond(
                to: ServerAPIRequest(method: request.method.rawValue, url: request.url, headers: request.headers, body: request.body ?? Data()),
                backend: simulator, now: await simulator.now, tokenTime: Date())
            return AppStoreHTTPResponse(status: answer.status, headers: answer.headers.map { ($0.key, $0.value) }, body: answer.body)
        }
    }

    static func run() async throws -> [BenchmarkRow] {
        let subscriptions = 400
        let rounds = 3
        let catalog = try CatalogLoader.load(json: try Data(contentsOf: URL(fileURLWithPath: "Examples/catalog.json")))
        guard let demo = catalog.apps.first,
            let monthly = catalog.products.first(where: { $0.type == .autoRenewable && $0.duration?.iso8601 == "P1M" })
        else { throw BenchmarkFailure("Examples/catalog.json names no app with a monthly subscription") }
        let key = P256.Signing.PrivateKey()
        let (keyID, issuerID) = ("BENCHKEY01", "57246542-96fe-1a63-e053-0824d011072a")
        let start = Date().addingTimeInterval(-2 * 86_400)
        let simulator = try AppStoreSimulator(
            setup: SimulatorSetup(
                catalog: catalog, prices: [monthly.id: Money(milliUnits: 9_990, currency: "USD")], bundleID: demo.bundleID,
                time: .virtual(start: start), pki: .generate(receipts: false),
                serverAPICredentials: ServerAPICredentials(issuerID: issuerID, bundleID: demo.bundleID, keyID: keyID, publicKey: key.publicKey)))
        var rows = ["app_user_id,transaction_id"]
        for index in 0..<subscriptions {
            let account = SandboxAccount(id: "bench-\(index)", storefront: "USA")
            try await simulator.createAccount(account)
            guard case .purchased(let purchase) = try await simulator.purchase(DevicePurchase(accountID: account.id, productID: monthly.id)) else {
                throw BenchmarkFailure("a purchase did not go through")
            }
            rows.append("user-\(index),\(purchase.transaction.originalTransactionID)")
        }
        // A sandbox year: twelve renewals each.
        _ = try await simulator.advance(by: 3_600)
        let transport = InProcessAppStore(
            responder: ServerAPIResponder(
                credentials: ServerAPICredentials(issuerID: issuerID, bundleID: demo.bundleID, keyID: keyID, publicKey: key.publicKey),
                pki: simulator.pki, environment: .sandbox),
            simulator: simulator)
        let app = try AppContext(
            configuration: AppConfiguration(
                id: "bench", bundleID: demo.bundleID, catalog: .catalog(catalog), environments: [.sandbox], publicKeys: [],
                trustedRoots: [.der(try simulator.pki.jwsRootDER)],
                serverAPI: SigningKeyConfiguration(keyID: keyID, privateKey: SecretValue(key.pemRepresentation), issuerID: issuerID, baseURL: baseURL)),
            environment: [:], transport: transport, wallClock: WallClock())
        guard let client = app.serverAPI else { throw BenchmarkFailure("the app has no Server API client") }
        let input = try ImportInput.csv(Data(rows.joined(separator: "\n").utf8), format: .transactions)
        let ids = rows.dropFirst().map { String($0.split(separator: ",")[1]) }

        var floor = Double.infinity
        var imported = Double.infinity
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        for _ in 0..<rounds {
            let asked = ContinuousClock.now
            for id in ids {
                _ = try await client.allPages(.transactionHistory(transactionID: id))
                _ = try await client.sendReturningData(.subscriptionStatuses(transactionID: id))
            }
            floor = min(floor, (ContinuousClock.now - asked).seconds)

            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let storage = try SQLiteStorage(path: directory.appendingPathComponent("bench.sqlite").path)
            try await storage.migrate()
            let subscriberImport = SubscriberImport(
                pipeline: EvidencePipeline(app: app, storage: storage, webhookWakeUp: WebhookWakeUp(), metrics: ServerMetrics(), logger: logger),
                clock: WallClock(), options: SubscriberImport.Options(checkpointRows: 8, admin: "bench"))
            let started = ContinuousClock.now
            let job = try await subscriberImport.run(input)
            imported = min(imported, (ContinuousClock.now - started).seconds)
            guard job.counts.imported == subscriptions else { throw BenchmarkFailure("imported \(job.counts.imported) of \(subscriptions): \(job.counts)") }
        }
        let apple = 1_000_000 / ApplePacing.defaultRate(.subscriptionStatuses) / 3_600
        return [
            BenchmarkRow(name: "Apple's answers alone (floor)", iterations: subscriptions, secondsTotal: floor, note: "history + statuses, signed"),
            BenchmarkRow(
                name: "import: ask, verify, apply, checkpoint", iterations: subscriptions, secondsTotal: imported,
                note: String(format: "%.2f× floor; 1,000,000 at Apple's default pace: %.0f h", imported / floor, apple)),
        ]
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// A year of App Store customers played on a simulated Apple while one Perennial listened (every
/// purchase posted by the app, every notification delivered), and what a previous backend would
/// have kept of it: each customer's app user id and transaction ids, and their receipts. An import
/// into an empty Perennial must answer as the one that listened.
struct ImportWorld {
    /// One customer: the app user, the Apple account, and the ids a previous backend kept.
    struct Customer: Sendable {
        var user: AppUserID
        var account: SandboxAccount
        var originalTransactionID: String
        /// The last transaction id Apple issued for the subscription.
        var latestTransactionID: String
    }

    let apple: SimulatedApple
    let apps: AppRegistry
    let live: any SubscriberStorage
    let customers: [Customer]
    /// The end of the year: the instant both Perennials are asked at.
    let end: Date

    var app: AppContext { apps.apps[0] }

    func pipeline(_ storage: any SubscriberStorage) -> EvidencePipeline {
        EvidencePipeline(app: app, storage: storage, webhookWakeUp: WebhookWakeUp(), metrics: ServerMetrics(), logger: Logger(label: "test"))
    }

    func importer(into storage: any SubscriberStorage, checkpointRows: Int = 4) -> SubscriberImport {
        SubscriberImport(pipeline: pipeline(storage), clock: TestClock(end), options: SubscriberImport.Options(checkpointRows: checkpointRows, admin: "test"))
    }

    /// Plays `count` customers over a year: staggered purchases of both products, an upgrade, a
    /// cancellation, a billing failure and a refund among them; Perennial `live` hears everything.
    /// A new Perennial's database, migrated and empty.
    static func emptyPerennial() async throws -> any SubscriberStorage {
        let storage: any SubscriberStorage = try ServerHarness.temporarySQLite()
        try await storage.migrate()
        return storage
    }

    static func played(customers count: Int) async throws -> ImportWorld {
        let live = try await emptyPerennial()
        var world = try StoreWorld(environment: .production)
        world.state = SimulatorState(
            configuration: SimulatorConfiguration(
                catalog: StoreWorld.catalog, prices: world.state.configuration.prices, timeScale: .production, environment: .production),
            start: StoreWorld.start)
        let clock = TestClock(StoreWorld.start)
        let store = SimulatedStore(world: world)
        let apple = try SimulatedApple(store: store, clock: clock)
        let pki = try StoreWorld.sharedPKI.get()
        var configuration = try apple.productionApp()
        if let authority = pki.receipts {
            configuration.receipts = ReceiptConfiguration(roots: [.certificates([authority.root])], mode: .local)
        }
        let apps = try AppRegistry(configuration: ServerConfiguration(port: 0, apps: [configuration]), environment: [:], transport: apple)
        let pipeline = EvidencePipeline(app: apps.apps[0], storage: live, webhookWakeUp: WebhookWakeUp(), metrics: ServerMetrics(), logger: Logger(label: "test"))
        let day: TimeInterval = 86_400
        var customers: [Customer] = []
        for index in 0..<count {
            let at = StoreWorld.start.addingTimeInterval(Double(index) * day)
            try await hear(try await store.advance(to: at).notifications, pipeline)
            let account = SandboxAccount(id: "customer-\(index)@example.com", storefront: "USA")
            let step = try await store.perform(
                .purchase(PurchaseRequest(productID: index % 2 == 0 ? "pro.monthly" : "basic.monthly", account: account, appAccountToken: nil, offer: nil)))
            let transaction = step.output.transactions[0]
            let user = AppUserID("user-\(index)")
            _ = try await pipeline.ingest(.signedTransaction(try await store.world.signed(transaction), presentedBy: user), now: at)
            try await hear(step.notifications, pipeline)
            customers.append(Customer(user: user, account: account, originalTransactionID: transaction.originalTransactionID, latestTransactionID: transaction.transactionID))
        }
        // A year in ten-day steps, with a few customers doing what customers do.
        for step in 1...36 {
            let at = StoreWorld.start.addingTimeInterval(Double(step) * 10 * day)
            try await hear(try await store.advance(to: at).notifications, pipeline)
            // Customer 1 upgrades, 2 turns renewal off, 3's card fails (each when the population has them).
            let events: [Int: (customer: Int, action: (String) -> LifecycleAction)] = [
                6: (1, { .changeProduct(originalTransactionID: $0, productID: "pro.monthly") }),
                9: (2, { .setAutoRenew(originalTransactionID: $0, enabled: false) }),
                14: (3, { .failBilling(originalTransactionID: $0, grace: false) }),
            ]
            if let event = events[step], event.customer < count {
                try await hear(try await store.perform(event.action(customers[event.customer].originalTransactionID)).notifications, pipeline)
            }
            if step == 18, count > 4 {
                let state = await store.currentState()
                let latest = try #require(state.lifecycles.first { $0.originalTransactionID == customers[4].originalTransactionID }?.transactions.last)
                try await hear(try await store.perform(.refund(transactionID: latest.transactionID, amount: .full, reason: .other)).notifications, pipeline)
            }
        }
        let end = StoreWorld.start.addingTimeInterval(365 * day)
        try await hear(try await store.advance(to: end).notifications, pipeline)
        clock.now = end
        let state = await store.currentState()
        for index in customers.indices {
            let lifecycle = try #require(state.lifecycles.first { $0.originalTransactionID == customers[index].originalTransactionID })
            customers[index].latestTransactionID = try #require(lifecycle.transactions.last).transactionID
        }
        return ImportWorld(apple: apple, apps: apps, live: live, customers: customers, end: end)
    }

    /// Delivers Apple's notifications to the listening Perennial, each at its date.
    private static func hear(_ notifications: [WireNotification], _ pipeline: EvidencePipeline) async throws {
        for notification in notifications {
            _ = try await pipeline.ingest(.notificationV2(try notification.v2Body()), now: notification.intent.date)
        }
    }

    /// The customers' receipts, as a verifyReceipt-era backend kept them at the end of the year.
    func receipts() async throws -> [(user: AppUserID, base64: String)] {
        var receipts: [(user: AppUserID, base64: String)] = []
        for customer in customers {
            receipts.append((customer.user, try await apple.store.world.receipt(for: customer.account)))
        }
        return receipts
    }

    /// Expects every customer's subscriber, at the end of the year, to be the same in `imported`
    /// as in the Perennial that listened: every subscription, transaction, entitlement and
    /// eligibility, but for where each record came from (a notification at the time, or Apple's
    /// answer at the end of the year), when its renewal info was signed, and whether a transaction
    /// an upgrade replaced says so: Apple marks it `isUpgraded` only in later answers (the
    /// history), and no notification sends the replaced transaction again.
    func expectSameAnswers(_ imported: any SubscriberStorage, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for customer in customers {
            let heard = Self.answer(try await pipeline(live).view(of: customer.user, now: end))
            let brought = Self.answer(try await pipeline(imported).view(of: customer.user, now: end))
            #expect(!heard.subscriptions.isEmpty, "\(customer.user)", sourceLocation: sourceLocation)
            #expect(brought == heard, "\(customer.user)", sourceLocation: sourceLocation)
        }
    }

    /// Expects the analytics counters of the year, by product and by storefront, to be the same in
    /// `imported` as in the Perennial that listened: the figures are the records' facts, whenever
    /// the records arrived.
    func expectSameAnalytics(_ imported: any SubscriberStorage, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for dimension in AnalyticsDimension.allCases {
            let request = AnalyticsCounterRequest(
                appBundleID: StoreWorld.bundleID, environment: .production, dimension: dimension,
                fromDay: AnalyticsCounters.day(of: StoreWorld.start), throughDay: AnalyticsCounters.day(of: end))
            let heard = Set(try await live.analyticsCounters(request))
            let brought = Set(try await imported.analyticsCounters(request))
            #expect(!heard.isEmpty, sourceLocation: sourceLocation)
            let onlyHeard = heard.subtracting(brought).map { "\($0.metric.rawValue)@\($0.day) \($0.segment) \($0.value)" }.sorted()
            let onlyBrought = brought.subtracting(heard).map { "\($0.metric.rawValue)@\($0.day) \($0.segment) \($0.value)" }.sorted()
            #expect(onlyHeard.isEmpty && onlyBrought.isEmpty, "\(dimension): live only \(onlyHeard), imported only \(onlyBrought)", sourceLocation: sourceLocation)
        }
    }

    /// The view without the provenance of its records, nor the upgrade marks of replaced transactions.
    private static func answer(_ view: SubscriberView) -> SubscriberView {
        var view = view
        for index in view.subscriptions.indices {
            view.subscriptions[index].renewalInfoDate = nil
            for transaction in view.subscriptions[index].history.indices {
                view.subscriptions[index].history[transaction].provenance = Provenance(source: .serverAPI, versionDate: .distantPast, isSigned: true)
                view.subscriptions[index].history[transaction].isUpgraded = false
            }
        }
        return view
    }

    /// A CSV of `header` and rows, fields quoted.
    static func csv(_ header: [String], _ rows: [[String]]) -> Data {
        Data(([header] + rows).map { $0.map { "\"\($0)\"" }.joined(separator: ",") }.joined(separator: "\n").utf8)
    }
}

extension ImportInput {
    /// Every row, read in one pass.
    func allRows() throws -> [Row] {
        let rows = try rows()
        var all: [Row] = []
        while let row = try rows.next() { all.append(row) }
        return all
    }
}

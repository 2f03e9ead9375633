import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
public import PerennialCore
public import PerennialSimulator

/// Fills `serve --simulator`'s demo app with a year of simulated subscribers, so a newcomer's
/// dashboard is alive at once: a few hundred sandbox customers subscribe on random days of the
/// past year (some through a free trial), and renew, cancel, fail billing or get refunded.
///
/// It plays the two sides a deployment has, over HTTP only: a second simulator on a virtual
/// clock at the real calendar's pace (the demo's own runs at sandbox speed) is Apple, delivering
/// its notifications to the server as it moves through the year in a few seconds; and the app
/// posts each purchase's signed transaction for its user (`demo-user-001`…), as an app does.
/// The server trusts this simulator's root beside the demo's (``trustedRoot``).
public struct DemoSeeder: Sendable {
    /// The simulator playing Apple over the past year.
    public let simulator: AppStoreSimulator
    /// How many customers subscribe.
    public let subscribers: Int
    let serverURL: URL
    let products: [String]

    /// Apple delivers only V2 notifications here: an app chooses one version per URL in App Store
    /// Connect. V1 bodies carry no date, so their records are dated when the server receives them;
    /// played through a year in seconds, every V1 renewal info was dated after all of the year's
    /// signed ones and outranked them (17 customers whose retries Apple had ended stayed "in billing
    /// retry, renews" for months, and no churn was involuntary).
    ///
    /// A seeder of `subscribers` users for the app of `catalog` that `wiring` connects, whose
    /// server must trust the seeder's root (``trustedRoot``). The year ends at `now`.
    public init(
        catalog: Catalog, wiring: SandboxWiring, subscribers: Int = 300, now: Date
    ) throws {
        products = catalog.products.filter { $0.type == .autoRenewable }.map(\.id).sorted()
        let prices = Dictionary(
            uniqueKeysWithValues: catalog.products.filter { $0.type == .autoRenewable }.map { product in
                (product.id, Money(milliUnits: product.id.contains("yearly") ? 59_990 : product.id.contains("premium") ? 9_990 : 4_990, currency: "USD"))
            })
        simulator = try AppStoreSimulator(
            setup: SimulatorSetup(
                catalog: catalog, prices: prices, bundleID: wiring.bundleID, seed: 2026, timeScale: .production,
                billingGracePeriodDays: 16, time: .virtual(start: now.addingTimeInterval(-365 * 86_400)),
                pki: .generate(receipts: false), wire: wiring.wire, targets: DeliveryTargets(v2: wiring.notificationTargets.v2),
                firstTransactionID: Self.firstTransactionID))
        serverURL = wiring.serverURL
        self.subscribers = subscribers
    }

    /// Where the seeded purchases' ids start: apart from the live simulator's (2000000000000001…),
    /// whose purchases would otherwise be taken for the seeded ones.
    static let firstTransactionID: Int64 = 1_900_000_000_000_001

    /// The root the server must trust for the seeded data (DER).
    public var trustedRoot: Data {
        get throws { try simulator.pki.jwsRootDER }
    }

    /// What one customer does after subscribing.
    private enum Fate: CaseIterable {
        case renews, cancels, failsBilling, refunded
    }

    private struct Plan {
        var user: String
        var day: Double
        var product: String
        var trial: Bool
        var fate: Fate
        /// Months after subscribing when the fate strikes.
        var after: Double
    }

    /// Plays the year until `end`, once the server answers, posting purchases as the app whose
    /// client key is `publicKey`; returns how many purchases the server refused (none, unless
    /// something is wrong).
    public func seed(until end: Date, publicKey: String) async throws -> Int {
        try await waitForServer()
        var random = SeededRandomNumberGenerator(seed: 2026)
        guard !products.isEmpty else { return 0 }
        let start = await simulator.now
        // More customers subscribe as the year goes on: the app grows.
        let plans = (1...subscribers).map { index -> Plan in
            let day = 365 * (1 - (Double.random(in: 0..<1, using: &random) * Double.random(in: 0..<1, using: &random)).squareRoot())
            let fates: [Fate] = [.renews, .renews, .renews, .cancels, .cancels, .failsBilling, .refunded]
            return Plan(
                user: String(format: "demo-user-%03d", index), day: min(day, 364.5), product: products[Int.random(in: 0..<products.count, using: &random)],
                trial: Double.random(in: 0..<1, using: &random) < 0.4, fate: fates[Int.random(in: 0..<fates.count, using: &random)],
                after: Double.random(in: 0.5..<6, using: &random))
        }.sorted { $0.day < $1.day }

        var later: [(at: Date, action: LifecycleAction)] = []
        var refused = 0
        let storefronts = ["USA", "GBR", "DEU", "FRA", "JPN"]
        for (index, plan) in plans.enumerated() {
            try Task.checkCancellation()
            let at = start.addingTimeInterval(plan.day * 86_400)
            try await act(until: at, &later)
            try await simulator.createAccount(SandboxAccount(id: plan.user, storefront: storefronts[index % storefronts.count]))
            let offer = plan.trial ? Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W") : nil
            let step = try await simulator.perform(
                .purchase(PurchaseRequest(productID: plan.product, account: try await simulator.account(id: plan.user), offer: offer)))
            guard let transaction = step.output.transactions.first else { continue }
            let signed = try simulator.pki.signedTransaction(transaction, signedDate: await simulator.now)
            if try await !post(signed, user: plan.user, publicKey: publicKey) { refused += 1 }
            let when = at.addingTimeInterval(plan.after * 30 * 86_400)
            let id = transaction.originalTransactionID
            switch plan.fate {
            case .renews: break
            case .cancels: later.append((when, .setAutoRenew(originalTransactionID: id, enabled: false)))
            case .failsBilling: later.append((when, .failBilling(originalTransactionID: id, grace: true)))
            case .refunded:
                later.append((at.addingTimeInterval(3 * 86_400), .refund(transactionID: transaction.transactionID, amount: .full, reason: .other)))
            }
        }
        try await act(until: end, &later)
        return refused
    }

    /// Moves the clock to `instant` day by day, performing the actions due on the way; an
    /// action on a subscription that already ended is skipped.
    private func act(until instant: Date, _ later: inout [(at: Date, action: LifecycleAction)]) async throws {
        later.sort { $0.at < $1.at }
        while let next = later.first, next.at <= instant {
            try Task.checkCancellation()
            later.removeFirst()
            _ = try await simulator.advance(to: max(next.at, await simulator.now))
            _ = try? await simulator.perform(next.action)
        }
        _ = try await simulator.advance(to: max(instant, await simulator.now))
    }

    /// The app hands the purchase to the server for `user`; whether the server took it.
    ///
    /// AsyncHTTPClient rather than URLSession: Linux's FoundationNetworking traps when a process
    /// shuts down with its tasks in flight (`TaskRegistry`: "a task that is not in the registry").
    private func post(_ signedTransaction: String, user: String, publicKey: String) async throws -> Bool {
        var request = HTTPClientRequest(url: serverURL.appendingPathComponent("v1/subscribers/\(user)/transactions").absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(publicKey)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(["signedTransaction": signedTransaction])))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 22)
        return response.status == .ok
    }

    /// Waits until the server answers its readiness probe.
    private func waitForServer() async throws {
        let probe = HTTPClientRequest(url: serverURL.appendingPathComponent("health/ready").absoluteString)
        for _ in 0..<600 {
            if let response = try? await HTTPClient.shared.execute(probe, timeout: .seconds(5)), response.status == .ok {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw DemoSeederError.serverNotReady(serverURL)
    }
}

/// Why the demo could not be seeded.
enum DemoSeederError: Error, CustomStringConvertible {
    case serverNotReady(URL)

    var description: String {
        switch self {
        case .serverNotReady(let url): "the server at \(url) did not become ready within a minute"
        }
    }
}

import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// The simulated App Store the server tests buy from: its lifecycle state, the emitter of signed
/// V2 (and V1) notifications, and the PKI whose roots the server under test trusts.
struct StoreWorld {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let bundleID = "com.example.app"
    static let sharedSecret = "s3cret-shared"
    static let wire = WireConfiguration(appAppleID: 1_234_567_890, bundleVersion: "1.0", sharedSecret: sharedSecret)
    static let alice = SandboxAccount(id: "alice@example.com", storefront: "USA")

    static let catalog: Catalog = catalog(bundleID: bundleID)

    static func catalog(bundleID: String) -> Catalog {
        do {
            return try Catalog(
                apps: [App(bundleID: bundleID, appAppleID: 1_234_567_890)],
                subscriptionGroups: [SubscriptionGroup(id: "premium", bundleID: bundleID, productIDs: ["pro.monthly", "basic.monthly"])],
                products: [
                    Product(
                        id: "pro.monthly", type: .autoRenewable, bundleID: bundleID, subscriptionGroupID: "premium", level: 1,
                        duration: SubscriptionDuration(iso8601: "P1M")),
                    Product(
                        id: "basic.monthly", type: .autoRenewable, bundleID: bundleID, subscriptionGroupID: "premium", level: 2,
                        duration: SubscriptionDuration(iso8601: "P1M")),
                    Product(id: "lifetime", type: .nonConsumable, bundleID: bundleID),
                ],
                entitlements: [
                    Entitlement(id: "pro", productIDs: ["pro.monthly", "lifetime"]),
                    Entitlement(id: "basic", productIDs: ["pro.monthly", "basic.monthly", "lifetime"]),
                ])
        } catch {
            preconditionFailure("test catalog is invalid: \(error)")
        }
    }

    /// One PKI (with a receipt authority; RSA generation is slow) for the whole test process.
    static let sharedPKI: Result<SimulatorPKI, SimulatorWireError> = Result { () throws(SimulatorWireError) in
        try SimulatorPKI.generate(validFrom: start.addingTimeInterval(-86_400), includesReceipts: true)
    }

    /// A PKI the server does not trust, to forge signatures with.
    static let foreignPKI: Result<SimulatorPKI, SimulatorWireError> = Result { () throws(SimulatorWireError) in
        try SimulatorPKI.generate(validFrom: start.addingTimeInterval(-86_400))
    }

    var state: SimulatorState
    var emitter: NotificationEmitter
    let pki: SimulatorPKI

    init(environment: AppStoreEnvironment = .sandbox, bundleID: String = StoreWorld.bundleID, pki: SimulatorPKI? = nil) throws {
        let pki = try pki ?? Self.sharedPKI.get()
        self.pki = pki
        state = SimulatorState(
            configuration: SimulatorConfiguration(
                catalog: Self.catalog(bundleID: bundleID),
                prices: ["pro.monthly": Money(milliUnits: 9_990, currency: "USD"), "basic.monthly": Money(milliUnits: 4_990, currency: "USD")],
                environment: environment),
            start: Self.start)
        emitter = NotificationEmitter(pki: pki, configuration: Self.wire)
    }

    /// Alice bought (and her app will post the purchase at `boughtAt`); then the subscription renewed.
    static func renewed() throws -> (world: StoreWorld, boughtAt: Date, purchase: String, renewal: WireNotification) {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("pro.monthly")
        let boughtAt = world.state.now
        let purchase = try world.signed(transaction)
        let renewal = try world.perform(.advance(to: try #require(transaction.expiresDate).addingTimeInterval(1))).notifications
        return (world, boughtAt, purchase, try #require(renewal.first { $0.payload.notificationType == .didRenew }))
    }

    /// Performs `action` and returns the notifications Apple would send for it.
    @discardableResult
    mutating func perform(_ action: LifecycleAction) throws -> (output: LifecycleOutput, notifications: [WireNotification]) {
        let output = try state.apply(action)
        return (output, try emitter.emit(output, state: state))
    }

    /// Buys `productID` for `account` and returns the purchase transaction.
    mutating func buy(
        _ productID: String, account: SandboxAccount = StoreWorld.alice, token: UUID? = nil, offer: Offer? = nil
    ) throws -> (transaction: SimulatedTransaction, notifications: [WireNotification]) {
        let step = try perform(.purchase(PurchaseRequest(productID: productID, account: account, appAccountToken: token, offer: offer)))
        return (step.output.transactions[0], step.notifications)
    }

    /// The transaction's JWS as StoreKit 2 hands it to the app.
    func signed(_ transaction: SimulatedTransaction) throws -> String {
        try pki.signedTransaction(transaction, signedDate: state.now)
    }

    /// The device's app receipt, base64.
    func receipt(for account: SandboxAccount = StoreWorld.alice) throws -> String {
        try DeviceReceipt(account: account, bundleID: Self.bundleID, state: state, pki: pki, configuration: Self.wire).base64
    }
}

extension WireNotification {
    /// The V2 HTTP body Apple POSTs.
    func v2Body() throws -> Data {
        try JSONEncoder().encode(body)
    }

    /// The V1 HTTP body Apple POSTs; nil for V2-only notification kinds.
    func v1Body() throws -> Data? {
        try v1.map { try JSONEncoder().encode($0) }
    }
}

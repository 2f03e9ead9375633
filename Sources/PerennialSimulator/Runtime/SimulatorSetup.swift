public import Crypto
import Foundation
public import PerennialCore

/// Everything a running simulator is configured with: the store (catalog, prices, time scale,
/// sandbox limits), the app facts on the wire, the clock, the keys, where notifications go and how
/// their delivery misbehaves.
///
/// One value rather than many initializer parameters so the CLI, in-process tests and scenarios
/// build it the same way and only state what differs from Apple's sandbox defaults.
public struct SimulatorSetup: Sendable {
    /// What the store sells; its first app is the device's app unless ``bundleID`` says otherwise.
    public var catalog: Catalog
    /// Price of each product by id; products without one are sold without a `price` field.
    public var prices: [String: Money]
    /// The app the device runs (receipts, verifyReceipt); nil takes the catalog's first app.
    public var bundleID: String?
    /// Sandbox or production: stamped on every payload, and the environment `/verifyReceipt` plays.
    public var environment: AppStoreEnvironment
    /// Seeds renewal failures, notification UUIDs and delivery faults.
    public var seed: UInt64
    /// How long periods, grace and retry windows, and notification retry hours last.
    public var timeScale: SandboxTimeScale
    /// Renewals before the sandbox stops renewing (Apple: 12).
    public var renewalLimit: Int
    /// Billing grace period in unscaled days; nil when the app has none.
    public var billingGracePeriodDays: Int?
    /// How long Apple retries a failed renewal charge, in unscaled days (Apple: 60).
    public var billingRetryDays: Int
    /// Virtual or followed clock.
    public var time: SimulatorTime
    /// Generated, provided or stored signing keys.
    public var pki: PKISource
    /// App facts on the wire, including the shared secret verifyReceipt checks and V1 carries.
    public var wire: WireConfiguration
    /// App Store Connect's V2 and V1 notification URLs.
    public var targets: DeliveryTargets
    /// Delivery misbehaviour from the start (changeable later with ``AppStoreSimulator/setFaults(_:)``).
    public var faults: DeliveryFaults
    /// False sends each notification once, as Apple's real sandbox does.
    public var retries: Bool
    /// The App Store Connect keys (and app) the simulated Server API accepts; nil refuses every
    /// token.
    public var serverAPICredentials: ServerAPICredentials?
    /// Public keys (by key id) promotional offer signatures are checked against; a promotional
    /// offer signed by another key is refused, as StoreKit refuses it.
    public var promotionalOfferKeys: [String: P256.Signing.PublicKey]
    /// The first transaction id the store hands out: two simulators feeding one server (the live
    /// one and the demo's seeder) must not hand out the same ids.
    public var firstTransactionID: Int64
    /// Where a store's ids start unless told otherwise (Apple's sandbox ids have 16 digits too).
    public static let defaultFirstTransactionID: Int64 = 2_000_000_000_000_001
    /// How notifications are POSTed; nil uses HTTP (AsyncHTTPClient).
    public var transport: (any NotificationTransport)?
    /// Win-back offer ids by product, best first, offered to lapsed subscribers.
    public var winBackOfferIDs: [String: [String]] = [:]
    /// Monthly prices of the one-year products also sold as a monthly plan with a 12-month commitment.
    public var monthlyCommitmentPrices: [String: Money] = [:]

    /// A sandbox-like setup: 5-minute months, 12 renewals, no grace period, retries on, no
    /// notification targets, a virtual clock at `start`, fresh keys with a receipt authority.
    public init(
        catalog: Catalog,
        prices: [String: Money] = [:],
        bundleID: String? = nil,
        environment: AppStoreEnvironment = .sandbox,
        seed: UInt64 = 0,
        timeScale: SandboxTimeScale = .sandbox(.everyFiveMinutes),
        renewalLimit: Int = 12,
        billingGracePeriodDays: Int? = nil,
        billingRetryDays: Int = 60,
        time: SimulatorTime,
        pki: PKISource = .generate(receipts: true),
        wire: WireConfiguration = WireConfiguration(),
        targets: DeliveryTargets = DeliveryTargets(),
        faults: DeliveryFaults = .none,
        retries: Bool = true,
        serverAPICredentials: ServerAPICredentials? = nil,
        promotionalOfferKeys: [String: P256.Signing.PublicKey] = [:],
        firstTransactionID: Int64 = SimulatorSetup.defaultFirstTransactionID,
        transport: (any NotificationTransport)? = nil
    ) {
        self.catalog = catalog
        self.prices = prices
        self.bundleID = bundleID
        self.environment = environment
        self.seed = seed
        self.timeScale = timeScale
        self.renewalLimit = renewalLimit
        self.billingGracePeriodDays = billingGracePeriodDays
        self.billingRetryDays = billingRetryDays
        self.time = time
        self.pki = pki
        self.wire = wire
        self.targets = targets
        self.faults = faults
        self.retries = retries
        self.serverAPICredentials = serverAPICredentials
        self.promotionalOfferKeys = promotionalOfferKeys
        self.firstTransactionID = firstTransactionID
        self.transport = transport
    }

    /// The lifecycle's store-wide settings.
    var configuration: SimulatorConfiguration {
        SimulatorConfiguration(
            catalog: catalog, prices: prices, timeScale: timeScale, renewalLimit: renewalLimit,
            billingGracePeriodDays: billingGracePeriodDays, billingRetryDays: billingRetryDays, environment: environment,
            seed: seed, firstTransactionID: firstTransactionID,
            firstWebOrderLineItemID: firstTransactionID + 50_000_000, winBackOfferIDs: winBackOfferIDs,
            monthlyCommitmentPrices: monthlyCommitmentPrices)
    }
}

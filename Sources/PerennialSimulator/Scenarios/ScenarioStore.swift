public import Foundation
import PerennialAppStore
public import PerennialCore

/// The store a scenario runs against: the catalog, prices and the sandbox's settings.
public struct ScenarioStore: Hashable, Sendable {
    /// Path of the catalog file, relative to the scenario file; nil to use the caller's catalog.
    public var catalogPath: String?
    public var prices: [String: Money]
    /// Seeds notification UUIDs and probabilistic billing failures.
    public var seed: UInt64
    public var timeScale: SandboxTimeScale
    public var renewalLimit: Int
    /// Billing grace period in days, nil for none.
    public var gracePeriodDays: Int?
    public var billingRetryDays: Int
    public var environment: AppStoreEnvironment
    /// The store's first instant; fixed so runs are reproducible.
    public var start: Date
    public var appAppleID: Int64?
    public var bundleVersion: String?
    /// Product id → the win-back offers Apple lists in a lapsed subscriber's renewal info
    /// (`eligibleWinBackOfferIds`).
    public var winBackOfferIDs: [String: [String]] = [:]
    /// Product id → the monthly price of the product's monthly plan with a 12-month commitment
    /// (one-year products only), bought with a purchase's `"billingPlan": "monthly"`.
    public var monthlyCommitmentPrices: [String: Money] = [:]

    /// The instant scenarios start at unless they say otherwise: 2026-01-01T00:00:00Z.
    public static let defaultStart = Date(timeIntervalSince1970: 1_767_225_600)

    /// A sandbox store at the default rate, as ``SimulatorConfiguration`` defaults it.
    public init(
        catalogPath: String? = nil, prices: [String: Money] = [:], seed: UInt64 = 0,
        timeScale: SandboxTimeScale = .sandbox(.everyFiveMinutes), renewalLimit: Int = 12, gracePeriodDays: Int? = nil,
        billingRetryDays: Int = 60, environment: AppStoreEnvironment = .sandbox, start: Date = ScenarioStore.defaultStart,
        appAppleID: Int64? = nil, bundleVersion: String? = nil
    ) {
        self.catalogPath = catalogPath
        self.prices = prices
        self.seed = seed
        self.timeScale = timeScale
        self.renewalLimit = renewalLimit
        self.gracePeriodDays = gracePeriodDays
        self.billingRetryDays = billingRetryDays
        self.environment = environment
        self.start = start
        self.appAppleID = appAppleID
        self.bundleVersion = bundleVersion
    }

    /// The lifecycle's configuration for `catalog`; `seed` overrides the file's (`--seed`).
    public func configuration(catalog: Catalog, seed: UInt64? = nil) -> SimulatorConfiguration {
        SimulatorConfiguration(
            catalog: catalog, prices: prices, timeScale: timeScale, renewalLimit: renewalLimit,
            billingGracePeriodDays: gracePeriodDays, billingRetryDays: billingRetryDays, environment: environment,
            seed: seed ?? self.seed, winBackOfferIDs: winBackOfferIDs, monthlyCommitmentPrices: monthlyCommitmentPrices)
    }

    /// The app facts the notifications carry.
    public var wireConfiguration: WireConfiguration {
        WireConfiguration(appAppleID: appAppleID, bundleVersion: bundleVersion)
    }

    /// The catalog: the file the scenario names (relative to `directory`, the scenario file's
    /// folder), else `builtIn`, the catalog JSON the caller supplies.
    public func catalog(relativeTo directory: URL?, builtIn: Data? = nil) throws(ScenarioError) -> Catalog {
        let data: Data
        let source: String
        if let catalogPath {
            let url = catalogPath.hasPrefix("/") || directory == nil
                ? URL(fileURLWithPath: catalogPath) : (directory ?? URL(fileURLWithPath: ".")).appendingPathComponent(catalogPath)
            source = url.path
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw .invalidCatalog(path: source, reason: "cannot be read: \(error.localizedDescription)")
            }
        } else if let builtIn {
            data = builtIn
            source = "(built-in)"
        } else {
            throw .noCatalog
        }
        do {
            return try CatalogLoader.load(json: data)
        } catch {
            throw .invalidCatalog(path: source, reason: error.description)
        }
    }

    /// Reads the `store` object of a scenario file.
    init(_ fields: StepFields) throws(ScenarioDecodingError) {
        typealias BodyError = ScenarioStep.BodyError
        let known: Set<String> = [
            "catalog", "prices", "seed", "rate", "renewalLimit", "gracePeriodDays", "billingRetryDays", "environment", "start",
            "appAppleId", "bundleVersion", "winBackOffers", "monthlyCommitments",
        ]
        if let unknown = fields.values.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidField(path: "store.\(unknown)", reason: "not a store field (\(known.sorted().joined(separator: ", ")))")
        }
        self.init()
        catalogPath = try Scenario.read("store.catalog") { () throws(BodyError) in try fields.optionalString("catalog") }
        if let seed = try Scenario.read("store.seed", { () throws(BodyError) in try fields.optionalInt("seed") }) {
            guard seed >= 0 else { throw .invalidField(path: "store.seed", reason: "must not be negative") }
            self.seed = UInt64(seed)
        }
        if let rate = try Scenario.read("store.rate", { () throws(BodyError) in try fields.optionalString("rate") }) {
            guard let scale = SandboxTimeScale(scenarioText: rate) else {
                throw .invalidField(path: "store.rate", reason: "\"\(rate)\" is not production, 1h, 30min, 15min, 5min, 3min or an Apple rate name")
            }
            timeScale = scale
        }
        renewalLimit = try Scenario.read("store.renewalLimit") { () throws(BodyError) in try fields.optionalInt("renewalLimit") } ?? renewalLimit
        gracePeriodDays = try Scenario.read("store.gracePeriodDays") { () throws(BodyError) in try fields.optionalInt("gracePeriodDays") }
        billingRetryDays = try Scenario.read("store.billingRetryDays") { () throws(BodyError) in try fields.optionalInt("billingRetryDays") }
            ?? billingRetryDays
        if let environment = try Scenario.read("store.environment", { () throws(BodyError) in try fields.optionalString("environment") }) {
            guard environment == AppStoreEnvironment.sandbox.rawValue || environment == AppStoreEnvironment.production.rawValue else {
                throw .invalidField(path: "store.environment", reason: "must be Sandbox or Production")
            }
            self.environment = AppStoreEnvironment(rawValue: environment)
        }
        if let start = try Scenario.read("store.start", { () throws(BodyError) in try fields.optionalString("start") }) {
            self.start = try Scenario.read("store.start") { () throws(BodyError) in try StepFields.date(start, key: "start") }
        }
        appAppleID = try Scenario.read("store.appAppleId") { () throws(BodyError) in try fields.optionalInt("appAppleId") }.map { Int64($0) }
        bundleVersion = try Scenario.read("store.bundleVersion") { () throws(BodyError) in try fields.optionalString("bundleVersion") }
        if case .object(let prices) = fields.values["prices"] ?? .null {
            for (productID, value) in prices {
                self.prices[productID] = try Scenario.read("store.prices.\(productID)") { () throws(BodyError) in
                    try StepFields(.object(["price": value])).money("price")
                }
            }
        } else if !fields.isAbsent("prices") {
            throw .invalidField(path: "store.prices", reason: "must map product ids to {\"milliUnits\", \"currency\"}")
        }
        if case .object(let plans) = fields.values["monthlyCommitments"] ?? .null {
            for (productID, value) in plans {
                monthlyCommitmentPrices[productID] = try Scenario.read("store.monthlyCommitments.\(productID)") { () throws(BodyError) in
                    try StepFields(.object(["price": value])).money("price")
                }
            }
        } else if !fields.isAbsent("monthlyCommitments") {
            throw .invalidField(path: "store.monthlyCommitments", reason: "must map product ids to monthly prices {\"milliUnits\", \"currency\"}")
        }
        if case .object(let offers) = fields.values["winBackOffers"] ?? .null {
            for (productID, ids) in offers {
                guard case .array(let items) = ids else {
                    throw .invalidField(path: "store.winBackOffers.\(productID)", reason: "must be a list of offer ids")
                }
                winBackOfferIDs[productID] = try items.map { item throws(ScenarioDecodingError) in
                    guard case .string(let id) = item else {
                        throw .invalidField(path: "store.winBackOffers.\(productID)", reason: "must be a list of offer ids")
                    }
                    return id
                }
            }
        } else if !fields.isAbsent("winBackOffers") {
            throw .invalidField(path: "store.winBackOffers", reason: "must map product ids to lists of offer ids")
        }
    }
}

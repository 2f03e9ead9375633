import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// A small store shared by the lifecycle tests: one group with a monthly top tier, two monthly and
/// a yearly lower tier, plus a non-consumable, at the default sandbox rate (months of 300 s).
enum SimulatorFixture {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let month: TimeInterval = 300
    static let tester = SandboxAccount(id: "tester@example.com", storefront: "FRA")

    static let catalog: Catalog = {
        do {
            return try Catalog(
                apps: [App(bundleID: "com.example.app")],
                subscriptionGroups: [
                    SubscriptionGroup(
                        id: "premium", bundleID: "com.example.app", productIDs: ["pro.monthly", "basic.monthly", "plus.monthly", "basic.yearly"])
                ],
                products: [
                    subscription("pro.monthly", level: 1, duration: "P1M"),
                    subscription("basic.monthly", level: 2, duration: "P1M"),
                    subscription("plus.monthly", level: 2, duration: "P1M"),
                    subscription("basic.yearly", level: 2, duration: "P1Y"),
                    Product(id: "lifetime", type: .nonConsumable, bundleID: "com.example.app"),
                ],
                entitlements: [])
        } catch {
            preconditionFailure("fixture catalog is invalid: \(error)")
        }
    }()

    static let prices: [String: Money] = [
        "pro.monthly": Money(milliUnits: 9_990, currency: "EUR"),
        "basic.monthly": Money(milliUnits: 4_990, currency: "EUR"),
        "plus.monthly": Money(milliUnits: 5_990, currency: "EUR"),
        "basic.yearly": Money(milliUnits: 49_990, currency: "EUR"),
        "lifetime": Money(milliUnits: 99_990, currency: "EUR"),
    ]

    static func state(
        renewalLimit: Int = 12, gracePeriodDays: Int? = nil, seed: UInt64 = 0
    ) -> SimulatorState {
        SimulatorState(
            configuration: SimulatorConfiguration(
                catalog: catalog, prices: prices, renewalLimit: renewalLimit, billingGracePeriodDays: gracePeriodDays,
                seed: seed),
            start: start)
    }

    static func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    private static func subscription(_ id: String, level: Int, duration: String) -> Product {
        Product(
            id: id, type: .autoRenewable, bundleID: "com.example.app", subscriptionGroupID: "premium", level: level,
            duration: SubscriptionDuration(iso8601: duration))
    }
}

/// The (type, subtype) pairs of a run, the way Apple's documentation lists them.
struct Kind: Hashable, CustomStringConvertible {
    let type: String
    let subtype: String?

    init(_ type: String, _ subtype: String? = nil) {
        self.type = type
        self.subtype = subtype
    }

    var description: String { subtype.map { "\(type)/\($0)" } ?? type }
}

extension LifecycleOutput {
    var kinds: [Kind] { notifications.map { Kind($0.type.rawValue, $0.subtype?.rawValue) } }
}

extension SimulatorState {
    /// Buys `productID` for the fixture tester and returns the new original transaction id.
    mutating func buy(_ productID: String, offer: Offer? = nil, account: SandboxAccount = SimulatorFixture.tester) throws -> String {
        let output = try apply(.purchase(PurchaseRequest(productID: productID, account: account, offer: offer)))
        return output.transactions[0].originalTransactionID
    }

    /// Advances to `seconds` after the fixture start.
    mutating func advance(toSecond seconds: TimeInterval) throws -> LifecycleOutput {
        try apply(.advance(to: SimulatorFixture.at(seconds)))
    }
}

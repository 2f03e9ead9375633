import Foundation
import PerennialCore
import Testing

@Suite("Catalog")
struct CatalogTests {
    @Test("the example catalog in the repository loads")
    func exampleLoads() throws {
        let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: repository.appendingPathComponent("Examples/catalog.json"))
        let catalog = try CatalogLoader.load(json: data)
        #expect(catalog.apps == [App(bundleID: "com.example.perennial", appAppleID: 1_234_567_890)])
        #expect(catalog.subscriptionGroups.first?.productIDs.first == "com.example.perennial.premium.yearly")
        #expect(catalog.product(id: "com.example.perennial.lifetime")?.entitlementIDs == ["premium"])
        #expect(catalog.product(id: "com.example.perennial.season")?.duration == SubscriptionDuration(iso8601: "P3M"))
    }

    @Test("plan changes are judged by level and duration")
    func planChanges() {
        let catalog = Fixture.catalog
        #expect(catalog.planChangeKind(from: "standard.monthly", to: "premium.monthly") == .upgrade)
        #expect(catalog.planChangeKind(from: "premium.monthly", to: "standard.monthly") == .downgrade)
        #expect(catalog.planChangeKind(from: "premium.monthly", to: "premium.yearly") == .crossgrade)
        #expect(catalog.planChangeKind(from: "premium.monthly", to: "lifetime") == nil)
        #expect(catalog.planChangeKind(from: "premium.monthly", to: "unknown") == nil)
        #expect(catalog.planChangeIsImmediate(from: "standard.monthly", to: "premium.monthly"))
        #expect(catalog.planChangeIsImmediate(from: "premium.monthly", to: "premium.family.monthly"))
        #expect(!catalog.planChangeIsImmediate(from: "premium.monthly", to: "premium.yearly"))
        #expect(!catalog.planChangeIsImmediate(from: "premium.monthly", to: "basic.monthly"))
    }

    @Test("durations parse ISO 8601 and compare by meaning")
    func durations() {
        #expect(SubscriptionDuration(iso8601: "P1W") == SubscriptionDuration(iso8601: "P7D"))
        #expect(SubscriptionDuration(iso8601: "P1Y") == SubscriptionDuration(iso8601: "P12M"))
        #expect(SubscriptionDuration(iso8601: "P1M") != SubscriptionDuration(iso8601: "P30D"))
        for bad in ["", "P", "1M", "PM", "P0M", "P1X", "P-1M", "P1M2D", "p1m"] {
            #expect(SubscriptionDuration(iso8601: bad) == nil, "\(bad) must be rejected")
        }
    }

    /// A catalog text with one mistake and the error it must produce.
    struct Invalid: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var error: CatalogError
        var testDescription: String { name }
    }

    private static func one(group: String = #"{ "id": "g", "products": [{ "id": "p", "level": 1, "duration": "P1M" }] }"#, products: String = "", entitlements: String = "", apps: String = #"{ "bundleId": "a" }"#) -> String {
        #"{ "apps": [\#(apps)], "subscriptionGroups": [\#(group)], "products": [\#(products)], "entitlements": [\#(entitlements)] }"#
    }

    static let invalid: [Invalid] = [
        Invalid(name: "not JSON", json: "{", error: .malformed(path: "", reason: "")),
        Invalid(name: "missing level", json: one(group: #"{ "id": "g", "products": [{ "id": "p", "duration": "P1M" }] }"#), error: .malformed(path: "subscriptionGroups[0].products[0].level", reason: "required key is missing")),
        Invalid(name: "no apps", json: #"{ "apps": [] }"#, error: .noApps),
        Invalid(name: "duplicate app", json: one(apps: #"{ "bundleId": "a" }, { "bundleId": "a" }"#), error: .duplicateApp(bundleID: "a")),
        Invalid(name: "ambiguous app", json: one(apps: #"{ "bundleId": "a" }, { "bundleId": "b" }"#), error: .ambiguousApp(referencedBy: #"subscription group "g""#)),
        Invalid(name: "unknown app", json: one(group: #"{ "id": "g", "bundleId": "z", "products": [{ "id": "p", "level": 1, "duration": "P1M" }] }"#), error: .unknownApp(bundleID: "z", referencedBy: #"subscription group "g""#)),
        Invalid(name: "level 0", json: one(group: #"{ "id": "g", "products": [{ "id": "p", "level": 0, "duration": "P1M" }] }"#), error: .invalidLevel(productID: "p", level: 0)),
        Invalid(name: "bad duration", json: one(group: #"{ "id": "g", "products": [{ "id": "p", "level": 1, "duration": "1 month" }] }"#), error: .invalidDuration(productID: "p", text: "1 month")),
        Invalid(name: "empty group", json: one(group: #"{ "id": "g", "products": [] }"#), error: .emptyGroup(id: "g")),
        Invalid(name: "duplicate group", json: one(group: #"{ "id": "g", "products": [{ "id": "p", "level": 1, "duration": "P1M" }] }, { "id": "g", "products": [{ "id": "q", "level": 1, "duration": "P1M" }] }"#), error: .duplicateGroup(id: "g")),
        Invalid(name: "duplicate product", json: one(products: #"{ "id": "p", "type": "consumable" }"#), error: .duplicateProduct(id: "p")),
        Invalid(name: "subscription outside a group", json: one(products: #"{ "id": "s", "type": "autoRenewable" }"#), error: .subscriptionOutsideGroup(productID: "s")),
        Invalid(name: "unknown type", json: one(products: #"{ "id": "s", "type": "subscription" }"#), error: .unknownProductType(productID: "s", type: "subscription")),
        Invalid(name: "duration on a consumable", json: one(products: #"{ "id": "c", "type": "consumable", "duration": "P1M" }"#), error: .unexpectedDuration(productID: "c")),
        Invalid(name: "entitlement names an unknown product", json: one(entitlements: #"{ "id": "e", "products": ["nope"] }"#), error: .unknownProduct(id: "nope", referencedBy: #"entitlement "e""#)),
        Invalid(name: "duplicate entitlement", json: one(entitlements: #"{ "id": "e", "products": ["p"] }, { "id": "e", "products": ["p"] }"#), error: .duplicateEntitlement(id: "e")),
        Invalid(name: "consumable grants an entitlement", json: one(products: #"{ "id": "c", "type": "consumable" }"#, entitlements: #"{ "id": "e", "products": ["c"] }"#), error: .consumableGrantsEntitlement(productID: "c", entitlementID: "e")),
        Invalid(name: "empty identifier", json: one(entitlements: #"{ "id": "", "products": ["p"] }"#), error: .emptyIdentifier(path: "entitlements[0].id")),
    ]

    @Test("invalid catalogs are rejected with the reason and the offending value", arguments: invalid)
    func rejects(_ invalid: Invalid) {
        #expect {
            _ = try CatalogLoader.load(json: Data(invalid.json.utf8))
        } throws: { error in
            guard let error = error as? CatalogError else { return false }
            if case .malformed(let path, _) = error, case .malformed(let expectedPath, _) = invalid.error {
                return path == expectedPath
            }
            return error == invalid.error && !error.description.isEmpty
        }
    }
}

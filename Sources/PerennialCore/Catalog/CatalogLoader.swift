public import Foundation

/// Reads the human-written catalog file (JSON; see docs/catalog.md) into a validated ``Catalog``.
///
/// The file format is deliberately separate from the ``Catalog`` type: it nests products inside
/// their group in level order, lets a single-app catalog omit `bundleId` everywhere, and spells keys
/// the way people write them. Core does no I/O, so callers pass the file's bytes.
public enum CatalogLoader {
    /// Decodes and validates a catalog file.
    ///
    /// - Throws: ``CatalogError/malformed(path:reason:)`` for JSON that does not have the documented
    ///   shape, or the validation error of ``Catalog/init(apps:subscriptionGroups:products:entitlements:)``.
    public static func load(json data: Data) throws(CatalogError) -> Catalog {
        let file: CatalogFile
        do {
            file = try JSONDecoder().decode(CatalogFile.self, from: data)
        } catch let error as DecodingError {
            throw Self.describe(error)
        } catch {
            throw .malformed(path: "", reason: "\(error)")
        }
        return try file.catalog()
    }

    private static func describe(_ error: DecodingError) -> CatalogError {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .malformed(path: path(context.codingPath + [key]), reason: "required key is missing")
        case .typeMismatch(let type, let context):
            return .malformed(path: path(context.codingPath), reason: "expected \(type)")
        case .valueNotFound(let type, let context):
            return .malformed(path: path(context.codingPath), reason: "expected \(type), found null")
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0.localizedDescription))" } ?? ""
            return .malformed(path: path(context.codingPath), reason: context.debugDescription + underlying)
        @unknown default:
            return .malformed(path: "", reason: "\(error)")
        }
    }
}

extension CatalogLoader {
    /// `"9.99"` as 9990 milli-units: digits with at most three decimals, exactly (no floating point).
    /// Every amount an operator writes (a catalog price, a command-line price) reads this way.
    public static func milliUnits(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let units = Int64(parts[0]) else {
            return nil
        }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let decimals = parts[1]
            guard (1...3).contains(decimals.count), decimals.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(decimals) else { return nil }
            fraction = value * [100, 10, 1][decimals.count - 1]
        }
        return units * 1000 + fraction
    }
}

/// The JSON shape of the catalog file (keys as documented in docs/catalog.md).
private struct CatalogFile: Decodable {
    struct AppEntry: Decodable {
        var bundleId: String
        var appAppleId: Int64?
        var billingGracePeriodDays: Int?
    }
    struct GroupEntry: Decodable {
        var id: String
        var name: String?
        var bundleId: String?
        var products: [SubscriptionEntry]
    }
    struct SubscriptionEntry: Decodable {
        var id: String
        var level: Int
        var duration: String
        /// For analytics, the price of evidence that carries none (receipts).
        var prices: [PriceEntry]?
    }
    struct PriceEntry: Decodable {
        /// Three-letter storefront; absent for every storefront not listed.
        var storefront: String?
        /// A decimal amount with at most three decimals (`"9.99"`).
        var price: String
        var currency: String
    }
    struct ProductEntry: Decodable {
        var id: String
        var type: String
        var bundleId: String?
        var duration: String?
    }
    struct EntitlementEntry: Decodable {
        var id: String
        var description: String?
        var products: [String]
    }

    var apps: [AppEntry]
    var subscriptionGroups: [GroupEntry]?
    var products: [ProductEntry]?
    var entitlements: [EntitlementEntry]?

    func catalog() throws(CatalogError) -> Catalog {
        var catalogApps: [App] = []
        for entry in apps {
            if let days = entry.billingGracePeriodDays, ![3, 16, 28].contains(days) {
                throw .malformed(path: "apps[\(entry.bundleId)].billingGracePeriodDays", reason: "App Store Connect offers 3, 16 or 28 days, not \(days)")
            }
            catalogApps.append(App(bundleID: entry.bundleId, appAppleID: entry.appAppleId, billingGracePeriodDays: entry.billingGracePeriodDays))
        }
        // Duplicates are left for the catalog's own validation to name.
        let bundleIDs = Set(catalogApps.map(\.bundleID))
        func app(_ bundleID: String?, for item: String) throws(CatalogError) -> String {
            if let bundleID { return bundleID }
            guard bundleIDs.count == 1, let only = bundleIDs.first else {
                if bundleIDs.isEmpty { throw .noApps }
                throw .ambiguousApp(referencedBy: item)
            }
            return only
        }

        var groups: [SubscriptionGroup] = []
        var catalogProducts: [Product] = []
        var prices = PriceTable()
        for (groupIndex, entry) in (subscriptionGroups ?? []).enumerated() {
            let bundleID = try app(entry.bundleId, for: "subscription group \"\(entry.id)\"")
            let ranked = entry.products.enumerated().sorted { ($0.element.level, $0.offset) < ($1.element.level, $1.offset) }
            groups.append(SubscriptionGroup(id: entry.id, name: entry.name, bundleID: bundleID, productIDs: ranked.map(\.element.id)))
            for (productIndex, product) in ranked {
                for (priceIndex, price) in (product.prices ?? []).enumerated() {
                    let path = "subscriptionGroups[\(groupIndex)].products[\(productIndex)].prices[\(priceIndex)]"
                    guard let milliUnits = CatalogLoader.milliUnits(price.price) else {
                        throw .malformed(path: path + ".price", reason: "\"\(price.price)\" is not an amount like 9.99")
                    }
                    guard price.currency.count == 3 else { throw .malformed(path: path + ".currency", reason: "use a three-letter ISO 4217 code") }
                    prices.set(Money(milliUnits: milliUnits, currency: price.currency), productID: product.id, storefront: price.storefront)
                }
                guard product.level >= 1 else { throw .invalidLevel(productID: product.id, level: product.level) }
                guard let duration = SubscriptionDuration(iso8601: product.duration) else {
                    throw .invalidDuration(productID: product.id, text: product.duration)
                }
                catalogProducts.append(
                    Product(
                        id: product.id, type: .autoRenewable, bundleID: bundleID, subscriptionGroupID: entry.id,
                        level: product.level, duration: duration))
            }
        }
        for entry in products ?? [] {
            let type = ProductType(rawValue: entry.type)
            if type == .autoRenewable { throw .subscriptionOutsideGroup(productID: entry.id) }
            var duration: SubscriptionDuration?
            if let text = entry.duration {
                guard type == .nonRenewing else { throw .unexpectedDuration(productID: entry.id) }
                guard let parsed = SubscriptionDuration(iso8601: text) else { throw .invalidDuration(productID: entry.id, text: text) }
                duration = parsed
            }
            let bundleID = try app(entry.bundleId, for: "product \"\(entry.id)\"")
            catalogProducts.append(Product(id: entry.id, type: type, bundleID: bundleID, duration: duration))
        }
        let catalogEntitlements = (entitlements ?? []).map {
            Entitlement(id: $0.id, description: $0.description, productIDs: $0.products)
        }
        return try Catalog(
            apps: catalogApps, subscriptionGroups: groups, products: catalogProducts, entitlements: catalogEntitlements, prices: prices)
    }
}

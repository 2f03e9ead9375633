/// Everything Perennial knows about what an app sells: apps, subscription groups with ranked
/// products, one-time products and the entitlements products grant.
///
/// A catalog is validated once when built, so the engine can trust it: every product has one app,
/// every subscription has a group, a level and a duration, every entitlement names real products.
public struct Catalog: Hashable, Sendable {
    public let apps: [App]
    public let subscriptionGroups: [SubscriptionGroup]
    /// All products, subscriptions first (group by group, by level), then the others.
    public let products: [Product]
    public let entitlements: [Entitlement]
    /// Prices for evidence that carries none (analytics only; state never depends on a price).
    public let prices: PriceTable

    let productIndex: [String: Int]
    let groupIndex: [String: Int]

    /// Validates and indexes a catalog.
    ///
    /// - Throws: ``CatalogError`` naming the first problem found.
    public init(
        apps: [App], subscriptionGroups: [SubscriptionGroup], products: [Product], entitlements: [Entitlement], prices: PriceTable = PriceTable()
    ) throws(CatalogError) {
        guard !apps.isEmpty else { throw .noApps }
        var bundleIDs = Set<String>()
        for (index, app) in apps.enumerated() {
            guard !app.bundleID.isEmpty else { throw .emptyIdentifier(path: "apps[\(index)].bundleId") }
            guard bundleIDs.insert(app.bundleID).inserted else { throw .duplicateApp(bundleID: app.bundleID) }
        }

        var groupIndex: [String: Int] = [:]
        for (index, group) in subscriptionGroups.enumerated() {
            guard !group.id.isEmpty else { throw .emptyIdentifier(path: "subscriptionGroups[\(index)].id") }
            guard groupIndex.updateValue(index, forKey: group.id) == nil else { throw .duplicateGroup(id: group.id) }
            guard bundleIDs.contains(group.bundleID) else {
                throw .unknownApp(bundleID: group.bundleID, referencedBy: "subscription group \"\(group.id)\"")
            }
            guard !group.productIDs.isEmpty else { throw .emptyGroup(id: group.id) }
        }

        var indexedProducts = products
        var productIndex: [String: Int] = [:]
        for (index, product) in products.enumerated() {
            guard !product.id.isEmpty else { throw .emptyIdentifier(path: "products[\(index)].id") }
            guard productIndex.updateValue(index, forKey: product.id) == nil else { throw .duplicateProduct(id: product.id) }
            guard bundleIDs.contains(product.bundleID) else {
                throw .unknownApp(bundleID: product.bundleID, referencedBy: "product \"\(product.id)\"")
            }
            switch product.type {
            case .autoRenewable:
                guard let groupID = product.subscriptionGroupID, let group = groupIndex[groupID],
                    subscriptionGroups[group].productIDs.contains(product.id)
                else { throw .subscriptionOutsideGroup(productID: product.id) }
                guard let level = product.level else { throw .invalidLevel(productID: product.id, level: 0) }
                guard level >= 1 else { throw .invalidLevel(productID: product.id, level: level) }
                guard product.duration != nil else { throw .invalidDuration(productID: product.id, text: "") }
                guard subscriptionGroups[group].bundleID == product.bundleID else {
                    throw .unknownApp(bundleID: product.bundleID, referencedBy: "product \"\(product.id)\" of group \"\(groupID)\"")
                }
                indexedProducts[index].groupIndex = group
            case .nonRenewing:
                guard product.subscriptionGroupID == nil else { throw .subscriptionOutsideGroup(productID: product.id) }
            case .consumable, .nonConsumable:
                guard product.subscriptionGroupID == nil else { throw .subscriptionOutsideGroup(productID: product.id) }
                guard product.duration == nil else { throw .unexpectedDuration(productID: product.id) }
            default:
                throw .unknownProductType(productID: product.id, type: product.type.rawValue)
            }
        }
        for group in subscriptionGroups {
            for productID in group.productIDs where productIndex[productID] == nil {
                throw .unknownProduct(id: productID, referencedBy: "subscription group \"\(group.id)\"")
            }
        }

        var entitlementIDs = Set<String>()
        for (entitlementIndex, entitlement) in entitlements.enumerated() {
            guard !entitlement.id.isEmpty else { throw .emptyIdentifier(path: "entitlements[\(entitlementIndex)].id") }
            guard entitlementIDs.insert(entitlement.id).inserted else { throw .duplicateEntitlement(id: entitlement.id) }
            for productID in entitlement.productIDs {
                guard let index = productIndex[productID] else {
                    throw .unknownProduct(id: productID, referencedBy: "entitlement \"\(entitlement.id)\"")
                }
                guard indexedProducts[index].type != .consumable else {
                    throw .consumableGrantsEntitlement(productID: productID, entitlementID: entitlement.id)
                }
                if !indexedProducts[index].entitlementIndices.contains(entitlementIndex) {
                    indexedProducts[index].entitlementIndices.append(entitlementIndex)
                    indexedProducts[index].entitlementIDs.append(entitlement.id)
                }
            }
        }

        self.apps = apps
        self.subscriptionGroups = subscriptionGroups
        self.products = indexedProducts
        self.entitlements = entitlements
        self.prices = prices
        self.productIndex = productIndex
        self.groupIndex = groupIndex
    }

    /// The product with this App Store product id, if the catalog declares it.
    public func product(id: String) -> Product? {
        productIndex[id].map { products[$0] }
    }

    /// The type of a transaction's product: the catalog's, else what the record says (a product
    /// missing from the catalog), a group implying an auto-renewable subscription. Records from
    /// receipts, verifyReceipt and V1 notifications do not say their product's type.
    public func productType(of transaction: Transaction) -> ProductType? {
        productType(productID: transaction.productID, stated: transaction.productType, inGroup: transaction.subscriptionGroupID != nil)
    }

    /// ``productType(of:)`` from the record's fields, for a caller that reads them in place: a
    /// record passed whole is copied (a few hundred bytes and a dozen references).
    public func productType(productID: String, stated: ProductType?, inGroup: Bool) -> ProductType? {
        productIndex[productID].map { products[$0].type } ?? stated ?? (inGroup ? .autoRenewable : nil)
    }

    /// The subscription group with this identifier, if the catalog declares it.
    public func subscriptionGroup(id: String) -> SubscriptionGroup? {
        groupIndex[id].map { subscriptionGroups[$0] }
    }

    /// What moving a subscriber from one product to another is, judged by group levels only.
    ///
    /// Nil when either product is unknown, not a subscription, or the two are in different groups:
    /// Apple performs plan changes only inside a group.
    public func planChangeKind(from: String, to: String) -> PlanChangeKind? {
        guard let (old, new) = groupMates(from, to), let oldLevel = old.level, let newLevel = new.level else { return nil }
        if newLevel < oldLevel { return .upgrade }
        if newLevel > oldLevel { return .downgrade }
        return .crossgrade
    }

    /// Whether Apple applies a change between these products at once (an upgrade, or a crossgrade
    /// between equal durations) rather than at the next renewal (a downgrade, or a crossgrade to a
    /// different duration). False when the catalog cannot tell.
    public func planChangeIsImmediate(from: String, to: String) -> Bool {
        switch planChangeKind(from: from, to: to) {
        case .upgrade: return true
        case .crossgrade: return groupMates(from, to).map { $0.0.duration == $0.1.duration } ?? false
        case .downgrade, nil: return false
        }
    }

    private func groupMates(_ from: String, _ to: String) -> (Product, Product)? {
        guard let fromIndex = productIndex[from], let toIndex = productIndex[to] else { return nil }
        let old = products[fromIndex]
        let new = products[toIndex]
        guard old.groupIndex != nil, old.groupIndex == new.groupIndex else { return nil }
        return (old, new)
    }
}

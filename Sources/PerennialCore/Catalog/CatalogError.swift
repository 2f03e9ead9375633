/// Why a catalog was rejected. Each case names the offending value so that the person who wrote the
/// configuration file can fix it from the message alone.
public enum CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is not JSON of the documented shape; `path` locates the problem (`subscriptionGroups[0].products[1].level`).
    case malformed(path: String, reason: String)
    /// An identifier is empty; `path` says which one.
    case emptyIdentifier(path: String)
    /// The catalog lists no app, so no product could belong anywhere.
    case noApps
    /// The same identifier twice would make lookups ambiguous.
    case duplicateApp(bundleID: String)
    case duplicateGroup(id: String)
    case duplicateProduct(id: String)
    case duplicateEntitlement(id: String)
    /// A group or product names an app that the catalog does not declare.
    case unknownApp(bundleID: String, referencedBy: String)
    /// A group or product names no app while the catalog declares several.
    case ambiguousApp(referencedBy: String)
    /// A group without products cannot hold a subscription.
    case emptyGroup(id: String)
    /// A subscription level below 1 (1 is the highest service).
    case invalidLevel(productID: String, level: Int)
    case invalidDuration(productID: String, text: String)
    /// Auto-renewable subscriptions belong in `subscriptionGroups`, with a level and a duration.
    case subscriptionOutsideGroup(productID: String)
    case unknownProductType(productID: String, type: String)
    /// Only non-renewing subscriptions have a duration outside groups.
    case unexpectedDuration(productID: String)
    case unknownProduct(id: String, referencedBy: String)
    /// Consumables are used up; they cannot grant a lasting entitlement.
    case consumableGrantsEntitlement(productID: String, entitlementID: String)

    public var description: String {
        switch self {
        case .malformed(let path, let reason):
            return "catalog is malformed at \(path.isEmpty ? "the top level" : path): \(reason)"
        case .emptyIdentifier(let path):
            return "catalog has an empty identifier at \(path)"
        case .noApps:
            return "catalog declares no app; add at least one entry to \"apps\""
        case .duplicateApp(let bundleID):
            return "app \"\(bundleID)\" is declared more than once"
        case .duplicateGroup(let id):
            return "subscription group \"\(id)\" is declared more than once"
        case .duplicateProduct(let id):
            return "product \"\(id)\" is declared more than once"
        case .duplicateEntitlement(let id):
            return "entitlement \"\(id)\" is declared more than once"
        case .unknownApp(let bundleID, let referencedBy):
            return "\(referencedBy) names app \"\(bundleID)\", which is not in \"apps\""
        case .ambiguousApp(let referencedBy):
            return "\(referencedBy) must name its app with \"bundleId\" because the catalog declares several apps"
        case .emptyGroup(let id):
            return "subscription group \"\(id)\" has no products"
        case .invalidLevel(let productID, let level):
            return "product \"\(productID)\" has level \(level); levels start at 1 (the highest service)"
        case .invalidDuration(let productID, let text):
            return "product \"\(productID)\" has duration \"\(text)\"; write an ISO 8601 duration like P1W, P1M, P3M or P1Y"
        case .subscriptionOutsideGroup(let productID):
            return "auto-renewable product \"\(productID)\" must be listed inside a subscription group"
        case .unknownProductType(let productID, let type):
            return "product \"\(productID)\" has type \"\(type)\"; use consumable, nonConsumable or nonRenewing"
        case .unexpectedDuration(let productID):
            return "product \"\(productID)\" has a duration, which only subscriptions have"
        case .unknownProduct(let id, let referencedBy):
            return "\(referencedBy) names product \"\(id)\", which the catalog does not declare"
        case .consumableGrantsEntitlement(let productID, let entitlementID):
            return "entitlement \"\(entitlementID)\" cannot be granted by consumable product \"\(productID)\""
        }
    }
}

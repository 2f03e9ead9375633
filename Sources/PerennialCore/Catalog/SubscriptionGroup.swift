/// A subscription group: the products among which a subscriber can hold only one at a time and
/// between which Apple performs upgrades, downgrades and crossgrades.
public struct SubscriptionGroup: Hashable, Sendable, Codable {
    /// Apple's `subscriptionGroupIdentifier`.
    public let id: String
    public let name: String?
    public let bundleID: String
    /// The group's products, ordered by level (highest service first).
    public let productIDs: [String]

    /// A group; `productIDs` ranked highest service first (the loader sorts them by level).
    public init(id: String, name: String? = nil, bundleID: String, productIDs: [String]) {
        self.id = id
        self.name = name
        self.bundleID = bundleID
        self.productIDs = productIDs
    }
}

/// One in-app purchase product of the catalog.
///
/// For auto-renewable subscriptions the group `level` (1 is the highest service) and the
/// `duration` are what decide whether a plan change is an upgrade, a downgrade or a crossgrade —
/// never the price or the name.
public struct Product: Hashable, Sendable {
    public let id: String
    public let type: ProductType
    public let bundleID: String
    /// The subscription group, for auto-renewable subscriptions only.
    public let subscriptionGroupID: String?
    /// The service level inside the group (1 = highest), for auto-renewable subscriptions only.
    public let level: Int?
    /// The period length: required for auto-renewable subscriptions, optional for non-renewing
    /// ones (used when their transaction carries no expiry).
    public let duration: SubscriptionDuration?
    /// The entitlements this product grants, in catalog order.
    public internal(set) var entitlementIDs: [String]

    /// Index of the group in ``Catalog/subscriptionGroups``; lets the engine avoid string hashing.
    var groupIndex: Int?
    /// Indices into ``Catalog/entitlements``, parallel to `entitlementIDs`.
    var entitlementIndices: [Int]

    /// A product; the catalog fills in its entitlements when it is validated.
    public init(
        id: String,
        type: ProductType,
        bundleID: String,
        subscriptionGroupID: String? = nil,
        level: Int? = nil,
        duration: SubscriptionDuration? = nil
    ) {
        self.id = id
        self.type = type
        self.bundleID = bundleID
        self.subscriptionGroupID = subscriptionGroupID
        self.level = level
        self.duration = duration
        self.entitlementIDs = []
        self.groupIndex = nil
        self.entitlementIndices = []
    }
}

/// A capability of the app ("premium", "no-ads") that one or more products grant.
///
/// Apps check entitlements, not products, so that adding a product or moving a subscriber between
/// plans never changes what the app asks.
public struct Entitlement: Hashable, Sendable, Codable {
    public let id: String
    public let description: String?
    /// The products that grant it.
    public let productIDs: [String]

    /// An entitlement granted by the listed products.
    public init(id: String, description: String? = nil, productIDs: [String]) {
        self.id = id
        self.description = description
        self.productIDs = productIDs
    }
}

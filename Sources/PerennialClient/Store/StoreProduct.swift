/// A product as the store describes it for display; purchases only need its ``id``.
public struct StoreProduct: Codable, Sendable, Hashable {
    /// The App Store product id.
    public var id: String
    /// Localized name, when the store provides one.
    public var displayName: String?
    /// Localized price text (`$9.99`), when the store provides one.
    public var displayPrice: String?
    /// ISO 8601 subscription period (`P1M`); nil for a non-renewing product.
    public var subscriptionPeriod: String?

    /// A product.
    public init(id: String, displayName: String? = nil, displayPrice: String? = nil, subscriptionPeriod: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.displayPrice = displayPrice
        self.subscriptionPeriod = subscriptionPeriod
    }
}

/// One offering of the app (`GET /v1/subscribers/{appUserId}/offerings`): the products a paywall
/// sells, in the order to show them, and the app's own description of that paywall per locale,
/// as the operator last defined them on the server — so what the app sells changes without a
/// release.
public struct Offering: Codable, Equatable, Sendable {
    /// The operator's name for it ("default", "winter-sale"), unique in the app.
    public var id: String
    /// Product ids, in the order the paywall shows them.
    public var products: [String]
    /// Per locale ("en", "de-CH"), a JSON object only the app interprets
    /// (``OpaqueJSON/decode(_:using:)`` reads it as the app's own type).
    public var metadata: [String: OpaqueJSON]
    /// Who it is meant for; the server has already applied it to choose the current offering.
    public var targeting: OfferingTargetingRules
    /// Among the offerings a request matches, the highest wins.
    public var priority: Int
    /// Shown when no offering matches.
    public var isDefault: Bool

    public init(
        id: String, products: [String], metadata: [String: OpaqueJSON] = [:], targeting: OfferingTargetingRules = OfferingTargetingRules(),
        priority: Int = 0, isDefault: Bool = false
    ) {
        self.id = id
        self.products = products
        self.metadata = metadata
        self.targeting = targeting
        self.priority = priority
        self.isDefault = isDefault
    }
}

public import Foundation

/// A product as the store describes it for a paywall; purchases only need its ``id``.
public struct StoreProduct: Codable, Sendable, Hashable, Identifiable {
    /// The App Store product id.
    public var id: String
    /// Localized name, when the store provides one.
    public var displayName: String?
    /// Localized price text (`$9.99`), when the store provides one.
    public var displayPrice: String?
    /// The price in the storefront's currency, for comparisons (`$5.99/month` against `$49.99/year`).
    public var price: Decimal?
    /// ISO 8601 subscription period (`P1M`); nil for a product that does not renew.
    public var subscriptionPeriod: String?
    /// The introductory offer the store would apply to a first subscription in the group.
    public var introductoryOffer: StoreProductOffer?
    /// Whether the current user may still get ``introductoryOffer``, as the server judged it; nil
    /// when the server could not be asked (show the regular price then: promising a trial the store
    /// then refuses is worse).
    public var introEligibility: IntroEligibility?
    /// Promotional offers configured for the product (the SDK has the server sign the one bought).
    public var promotionalOffers: [StoreProductOffer]
    /// Win-back offers the store says the user may redeem now (iOS 18 and later; empty elsewhere).
    public var winBackOffers: [StoreProductOffer]

    /// A product.
    public init(
        id: String, displayName: String? = nil, displayPrice: String? = nil, price: Decimal? = nil,
        subscriptionPeriod: String? = nil, introductoryOffer: StoreProductOffer? = nil, introEligibility: IntroEligibility? = nil,
        promotionalOffers: [StoreProductOffer] = [], winBackOffers: [StoreProductOffer] = []
    ) {
        self.id = id
        self.displayName = displayName
        self.displayPrice = displayPrice
        self.price = price
        self.subscriptionPeriod = subscriptionPeriod
        self.introductoryOffer = introductoryOffer
        self.introEligibility = introEligibility
        self.promotionalOffers = promotionalOffers
        self.winBackOffers = winBackOffers
    }
}

/// Options of one purchase, mirroring StoreKit's purchase options.
public struct PurchaseOptions: Sendable, Hashable {
    /// A promotional offer to apply; the SDK has the server sign it first (legacy signature or
    /// compact JWS, whichever the store takes).
    public var promotionalOfferID: String?
    /// A win-back offer to apply (one of ``StoreProduct/winBackOffers``; StoreKit 2 on iOS 18 and later).
    public var winBackOfferID: String?
    /// Any other offer passed to the store as is (an introductory or offer-code offer on the
    /// simulator). Ignored when ``promotionalOfferID`` or ``winBackOfferID`` is set.
    public var offer: StoreOffer?

    /// Options; none by default.
    public init(promotionalOfferID: String? = nil, winBackOfferID: String? = nil, offer: StoreOffer? = nil) {
        self.promotionalOfferID = promotionalOfferID
        self.winBackOfferID = winBackOfferID
        self.offer = offer
    }
}

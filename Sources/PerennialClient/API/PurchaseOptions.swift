/// Options of one purchase, mirroring StoreKit's purchase options.
public struct PurchaseOptions: Sendable, Hashable {
    /// A promotional offer to apply; the SDK has the server sign it first.
    public var promotionalOfferID: String?
    /// Any other offer passed to the store as is (an introductory, offer-code or win-back offer on
    /// the simulator). Ignored when ``promotionalOfferID`` is set.
    public var offer: StoreOffer?

    /// Options; none by default.
    public init(promotionalOfferID: String? = nil, offer: StoreOffer? = nil) {
        self.promotionalOfferID = promotionalOfferID
        self.offer = offer
    }
}

public import PerennialAppStore
public import PerennialCore

/// An offer a device passes with a purchase, as StoreKit's purchase options carry it.
///
/// The signature matters for promotional offers only: StoreKit refuses one whose signature does
/// not verify, so the simulator checks it against ``SimulatorSetup/promotionalOfferKeys``.
public struct DeviceOffer: Equatable, Sendable {
    /// `introductory`, `promotional`, `offerCode` or `winBack`.
    public var type: OfferType
    /// The promotional offer id, offer code reference name or win-back offer id.
    public var id: String?
    /// How the offer is paid; nil for a plain discount the catalog does not describe.
    public var paymentMode: OfferPaymentMode?
    /// ISO 8601 length of the offer's first period (`P1W`); nil uses the product's duration.
    public var period: String?
    /// The developer's signature of a promotional offer, in the legacy form.
    public var signature: PromotionalOfferSignature?
    /// The developer's signature of a promotional offer in the JWS form
    /// (`promotionalOffer(_:compactJWS:)`), which a device passes instead of the legacy one.
    public var compactJWS: String?

    /// An offer.
    public init(
        type: OfferType, id: String? = nil, paymentMode: OfferPaymentMode? = nil, period: String? = nil,
        signature: PromotionalOfferSignature? = nil, compactJWS: String? = nil
    ) {
        self.type = type
        self.id = id
        self.paymentMode = paymentMode
        self.period = period
        self.signature = signature
        self.compactJWS = compactJWS
    }

    /// The offer as the lifecycle records it.
    var offer: Offer { Offer(type: type, id: id, paymentMode: paymentMode, period: period) }
}

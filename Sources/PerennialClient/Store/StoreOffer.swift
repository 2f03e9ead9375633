/// An offer the store should apply to a purchase (the simulator's and StoreKit's purchase options).
public struct StoreOffer: Codable, Sendable, Hashable {
    /// `introductory`, `promotional`, `offerCode`, `winBack`, or `introEligibility` (the server's
    /// signed verdict on the product's introductory offer, ``eligibilityJWS``).
    public var type: String
    /// The promotional offer id, offer code or win-back offer id.
    public var id: String?
    /// The server's signature; required for promotional offers.
    public var signature: SignedOffer?
    /// The server's signed eligibility verdict; required for `introEligibility`.
    public var eligibilityJWS: String?

    /// An offer.
    public init(type: String, id: String? = nil, signature: SignedOffer? = nil, eligibilityJWS: String? = nil) {
        self.type = type
        self.id = id
        self.signature = signature
        self.eligibilityJWS = eligibilityJWS
    }
}

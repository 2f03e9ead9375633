/// An offer the store should apply to a purchase (the simulator's and StoreKit's purchase options).
public struct StoreOffer: Codable, Sendable, Hashable {
    /// `introductory`, `promotional`, `offerCode` or `winBack`.
    public var type: String
    /// The promotional offer id, offer code or win-back offer id.
    public var id: String?
    /// The server's signature; required for promotional offers.
    public var signature: SignedOffer?

    /// An offer.
    public init(type: String, id: String? = nil, signature: SignedOffer? = nil) {
        self.type = type
        self.id = id
        self.signature = signature
    }
}

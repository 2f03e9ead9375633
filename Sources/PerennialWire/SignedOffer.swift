/// A promotional offer signed by the server with the developer's App Store Connect key, which the
/// store requires before it grants the offer (`/v1/subscribers/{appUserId}/offers/sign` in
/// docs/openapi.yaml).
public struct SignedOffer: Codable, Sendable, Hashable {
    /// The App Store Connect key id that signed.
    public var keyIdentifier: String
    /// The one-time nonce, lowercase UUID text (kept as text so its case survives the round trip).
    public var nonce: String
    /// The signing time in epoch milliseconds.
    public var timestamp: Int64
    /// The base64 signature (the legacy form every StoreKit accepts).
    public var signature: String
    /// The same offer signed as a compact JWS (the form Apple added to StoreKit 2), when the server
    /// produced one.
    public var compactJWS: String?

    /// A signed offer.
    public init(keyIdentifier: String, nonce: String, timestamp: Int64, signature: String, compactJWS: String? = nil) {
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
        self.compactJWS = compactJWS
    }
}

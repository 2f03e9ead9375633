/// The body Apple POSTs to a V2 notification URL: one JWS whose payload is a
/// ``ResponseBodyV2DecodedPayload``. Nothing in it is trusted before the signature is verified.
public struct ResponseBodyV2: Codable, Hashable, Sendable {
    /// The notification as a compact JWS.
    public var signedPayload: String?

    /// Creates a body.
    public init(signedPayload: String? = nil) {
        self.signedPayload = signedPayload
    }
}

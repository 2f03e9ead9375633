/// The protected header of an App Store JWS.
///
/// Apple puts the whole signing chain in `x5c` (leaf, intermediate, root; standard base64 DER, not
/// base64url) instead of a key id, so the header alone tells a verifier which key to trust once the
/// chain checks out. `kid` and `typ` appear in Xcode and test data and are kept for display only.
public struct JWSHeader: Sendable, Codable, Equatable {
    /// The signature algorithm; App Store data is always `ES256`.
    public var alg: String
    /// The certificate chain, leaf first, each certificate as standard base64 of its DER.
    public var x5c: [String]
    /// A key id, present in Xcode-signed data (`Apple_Xcode_Key`), absent in App Store data.
    public var kid: String?
    /// The media type, usually `JWT` when present.
    public var typ: String?

    /// Builds a header; the simulator signs with `alg: "ES256"` and a three-certificate `x5c`.
    public init(alg: String, x5c: [String], kid: String? = nil, typ: String? = nil) {
        self.alg = alg
        self.x5c = x5c
        self.kid = kid
        self.typ = typ
    }
}

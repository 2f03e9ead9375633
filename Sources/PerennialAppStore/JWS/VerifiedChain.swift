import Crypto
import X509

/// What the verifier remembers about a header whose chain passed full validation: enough to check a
/// later JWS with the same header by its validity window and one ECDSA verification.
///
/// Identical header bytes carry identical `x5c`, so the decoded header is kept too and the warm path
/// never parses JSON for it.
struct VerifiedChain: Sendable {
    /// The decoded header the chain came from.
    let header: JWSHeader
    /// The leaf certificate, returned with each verified JWS.
    let leaf: Certificate
    /// The leaf's key, parsed once, that checks every signature under this header.
    let leafKey: P256.Signing.PublicKey
    /// When the leaf, the intermediate and the trusted root are all valid.
    let window: ChainValidityWindow
}

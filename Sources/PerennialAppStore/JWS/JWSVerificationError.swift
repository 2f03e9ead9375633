public import Foundation

/// Why a compact JWS was rejected.
///
/// Each case names one reason and carries the offending value, so a webhook handler can log and
/// answer precisely (a forged chain is not the same incident as a replay of an expired one).
public enum JWSVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not a compact JWS (segments, base64url, JSON, certificate DER, signedDate).
    case malformed(String)
    /// The header's `alg` is not `ES256`, the only algorithm Apple signs App Store data with.
    case unsupportedAlgorithm(String)
    /// The header's `x5c` does not hold exactly three certificates (leaf, intermediate, root).
    case chainLength(Int)
    /// No path leads from the leaf through the intermediate to one of the configured roots.
    case untrustedRoot(String)
    /// A certificate lacks Apple's marker extension for its role (`leaf` or `intermediate`).
    case missingMarkerExtension(role: String, oid: String)
    /// A certificate of the chain is not valid at the validation time (expired or not yet valid).
    case expired(validationTime: Date, reason: String)
    /// The chain reaches a trusted root but breaks another rule (RFC 5280, key type, signatures).
    case invalidChain(String)
    /// The ES256 signature does not verify with the leaf certificate's key.
    case badSignature
    /// The header's `crit` lists extension parameters its signer made essential (RFC 7515
    /// §4.1.11); Apple uses none and Perennial understands none, so honouring the signer means
    /// refusing the JWS rather than ignoring a condition it cannot check.
    case unsupportedCriticalParameters([String])

    /// The reason and the offending value in words, for logs and HTTP error bodies.
    public var description: String {
        switch self {
        case .malformed(let reason):
            "malformed JWS: \(reason)"
        case .unsupportedAlgorithm(let alg):
            "unsupported JWS algorithm \"\(alg)\" (only ES256 is accepted)"
        case .chainLength(let count):
            "x5c holds \(count) certificate(s), exactly 3 are required (leaf, intermediate, root)"
        case .untrustedRoot(let reason):
            "untrusted root: \(reason)"
        case .missingMarkerExtension(let role, let oid):
            "the \(role) certificate lacks Apple's marker extension \(oid)"
        case .expired(let validationTime, let reason):
            "certificate chain not valid at \(validationTime.formatted(.iso8601)): \(reason)"
        case .invalidChain(let reason):
            "invalid certificate chain: \(reason)"
        case .badSignature:
            "the ES256 signature does not verify with the leaf certificate's key"
        case .unsupportedCriticalParameters(let names):
            "the header marks \(names.map { "\"\($0)\"" }.joined(separator: ", ")) critical (crit), and no JWS extension is supported (RFC 7515 §4.1.11)"
        }
    }
}

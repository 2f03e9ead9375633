public import Foundation

/// Why the simulated Server API refused a bearer token. Apple answers every one of these with a
/// bare 401; the reason is kept so the simulator can log it and tests can name it.
public enum ServerAPIAuthError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `Authorization: Bearer …` header.
    case missingBearerToken
    /// The token is not a compact JWS with a JSON header and JSON claims.
    case malformedToken(String)
    /// The header's `alg` is not `ES256`.
    case unsupportedAlgorithm(String?)
    /// The header's `typ` is not `JWT`.
    case wrongType(String?)
    /// The header names no key, or one the simulator was not given.
    case unknownKey(String?)
    /// The signature does not verify with the key the header names.
    case badSignature(keyID: String)
    /// `iss` is not the configured issuer id.
    case wrongIssuer(String?)
    /// `aud` is not `appstoreconnect-v1`.
    case wrongAudience(String?)
    /// `bid` is not the configured bundle id.
    case wrongBundleID(String?)
    /// `iat` or `exp` is missing.
    case missingTimestamps
    /// `exp` is not after `iat`, or the token claims to live longer than Apple allows (one hour).
    case invalidLifetime(issuedAt: Date, expiresAt: Date)
    /// The token expired before `now`.
    case expired(expiresAt: Date, now: Date)
    /// The token was issued after `now` (beyond the allowed clock skew).
    case issuedInFuture(issuedAt: Date, now: Date)

    /// The reason in words, for the simulator's log.
    public var description: String {
        switch self {
        case .missingBearerToken: "no Authorization: Bearer header"
        case .malformedToken(let reason): "the bearer token is not a JWT: \(reason)"
        case .unsupportedAlgorithm(let alg): "token alg \(alg ?? "(none)") is not ES256"
        case .wrongType(let typ): "token typ \(typ ?? "(none)") is not JWT"
        case .unknownKey(let kid): "token kid \(kid ?? "(none)") is not an accepted key"
        case .badSignature(let kid): "token signature does not verify with key \(kid)"
        case .wrongIssuer(let iss): "token iss \(iss ?? "(none)") is not the configured issuer"
        case .wrongAudience(let aud): "token aud \(aud ?? "(none)") is not appstoreconnect-v1"
        case .wrongBundleID(let bid): "token bid \(bid ?? "(none)") is not the configured bundle id"
        case .missingTimestamps: "token lacks iat or exp"
        case .invalidLifetime(let issuedAt, let expiresAt):
            "token lifetime from \(issuedAt.formatted(.iso8601)) to \(expiresAt.formatted(.iso8601)) is not within 1 hour"
        case .expired(let expiresAt, let now): "token expired at \(expiresAt.formatted(.iso8601)), now is \(now.formatted(.iso8601))"
        case .issuedInFuture(let issuedAt, let now):
            "token issued at \(issuedAt.formatted(.iso8601)), after now \(now.formatted(.iso8601))"
        }
    }
}

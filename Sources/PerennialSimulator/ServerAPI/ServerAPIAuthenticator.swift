import Crypto
public import Foundation
import PerennialAppStore

/// Checks an App Store Server API bearer token the way Apple does: an ES256 JWT
/// with header `{alg: ES256, kid, typ: JWT}` and claims `iss`, `iat`, `exp`, `aud`, `bid`, signed
/// with the In-App Purchase key the `kid` names, valid now, and living at most an hour.
public struct ServerAPIAuthenticator: Sendable {
    /// The audience Apple requires.
    public static let audience = "appstoreconnect-v1"
    /// The longest lifetime (`exp − iat`) Apple accepts.
    public static let maximumLifetime: TimeInterval = 3600
    /// How far in the future `iat` may lie, for clocks that disagree a little.
    public static let allowedClockSkew: TimeInterval = 60

    /// The accepted keys, issuer and bundle id.
    public let credentials: ServerAPICredentials

    /// An authenticator for `credentials`.
    public init(credentials: ServerAPICredentials) {
        self.credentials = credentials
    }

    private struct Header: Decodable {
        let alg: String?
        let kid: String?
        let typ: String?
    }

    private struct Claims: Decodable {
        let iss: String?
        let iat: Double?
        let exp: Double?
        let aud: String?
        let bid: String?
    }

    /// Accepts the token of `authorization` (the header's whole value) at `now`, or says why not.
    public func authenticate(authorization: String?, now: Date) throws(ServerAPIAuthError) {
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else {
            throw .missingBearerToken
        }
        let token = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
        let parts: JWSDecoding.Parts
        do {
            parts = try JWSDecoding.parts(of: token)
        } catch {
            throw .malformedToken(error.description)
        }
        let header: Header
        let claims: Claims
        do {
            header = try JSONDecoder().decode(Header.self, from: parts.headerJSON)
            claims = try JSONDecoder().decode(Claims.self, from: parts.payload)
        } catch {
            throw .malformedToken("header or claims are not the expected JSON: \(error)")
        }
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm(header.alg) }
        guard header.typ == "JWT" else { throw .wrongType(header.typ) }
        guard let keyID = header.kid, let key = credentials.keys[keyID] else { throw .unknownKey(header.kid) }
        guard key.isValidSignature(parts.signature, for: parts.signingInput) else { throw .badSignature(keyID: keyID) }
        guard claims.iss == credentials.issuerID else { throw .wrongIssuer(claims.iss) }
        guard claims.aud == Self.audience else { throw .wrongAudience(claims.aud) }
        guard claims.bid == credentials.bundleID else { throw .wrongBundleID(claims.bid) }
        guard let iat = claims.iat, let exp = claims.exp else { throw .missingTimestamps }
        let issuedAt = Date(timeIntervalSince1970: iat)
        let expiresAt = Date(timeIntervalSince1970: exp)
        guard exp > iat, exp - iat <= Self.maximumLifetime else { throw .invalidLifetime(issuedAt: issuedAt, expiresAt: expiresAt) }
        guard expiresAt > now else { throw .expired(expiresAt: expiresAt, now: now) }
        guard issuedAt <= now.addingTimeInterval(Self.allowedClockSkew) else { throw .issuedInFuture(issuedAt: issuedAt, now: now) }
    }
}

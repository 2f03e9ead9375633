public import Crypto
public import Foundation
import PerennialAppStore

/// Verifies the signed app-user tokens an app's own backend issues (compact JWS, HS256 or ES256):
/// the signature, the expiry and that `sub` is the app user the request is about.
///
/// Tokens are short JWTs with `{"sub": "<app user id>", "exp": <unix seconds>}`; `exp` is required
/// and may lie at most ``maxLifetime`` ahead, so a leaked token does not grant access forever.
public struct UserTokenVerifier: Sendable {
    private let hmacKey: SymmetricKey?
    private let publicKey: P256.Signing.PublicKey?
    /// How far ahead of now a token's `exp` may lie; a later one (`1e300`, say) is refused rather
    /// than honoured as a token that never expires.
    public let maxLifetime: TimeInterval

    /// A verifier accepting HS256 tokens under `hmacSecret` and/or ES256 tokens under `publicKey`.
    public init(hmacSecret: [UInt8]?, publicKey: P256.Signing.PublicKey?, maxLifetime: TimeInterval = UserTokenConfiguration.defaultMaxLifetime) {
        self.hmacKey = hmacSecret.map { SymmetricKey(data: $0) }
        self.publicKey = publicKey
        self.maxLifetime = maxLifetime
    }

    init(configuration: UserTokenConfiguration, field: String, environment: [String: String]) throws(ConfigurationError) {
        let secret = try configuration.hs256Secret.map { value throws(ConfigurationError) in
            Array(try value.resolve(field: field + ".hs256Secret", environment: environment).utf8)
        }
        var publicKey: P256.Signing.PublicKey?
        if let value = configuration.es256PublicKey {
            let pem = try value.resolve(field: field + ".es256PublicKey", environment: environment)
            do {
                publicKey = try P256.Signing.PublicKey(pemRepresentation: pem)
            } catch {
                throw .invalidValue(field: field + ".es256PublicKey", value: value.description, reason: "not a P-256 public key in PEM")
            }
        }
        guard secret != nil || publicKey != nil else {
            throw .invalidValue(field: field, value: "{}", reason: "set hs256Secret or es256PublicKey")
        }
        guard configuration.maxLifetimeSeconds > 0 else {
            throw .invalidValue(
                field: field + ".maxLifetimeSeconds", value: "\(configuration.maxLifetimeSeconds)", reason: "must be a positive number of seconds")
        }
        self.init(hmacSecret: secret, publicKey: publicKey, maxLifetime: configuration.maxLifetimeSeconds)
    }

    private struct Header: Decodable {
        var alg: String
        /// RFC 7515 §4.1.11: a token whose signer made its validity depend on parameters this
        /// verifier does not know must be refused; this verifier knows none.
        var crit: [String]?
    }
    private struct Claims: Decodable {
        var sub: String?
        var exp: Double?
    }

    /// Checks `token` for `user` at `now`.
    ///
    /// - Throws: ``AuthError/invalidUserToken(reason:)``, ``AuthError/expiredUserToken(expiredAt:)``
    ///   or ``AuthError/userMismatch(tokenSubject:pathUser:)``.
    public func verify(_ token: String, user: String, now: Date) throws(AuthError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else { throw .invalidUserToken(reason: "not a compact JWS") }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerData) else {
            throw .invalidUserToken(reason: "unreadable header")
        }
        if let critical = header.crit { throw .invalidUserToken(reason: "unsupported critical header parameters \(critical)") }
        let signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        switch header.alg {
        case "HS256":
            guard let hmacKey else { throw .invalidUserToken(reason: "HS256 is not configured for this app") }
            guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: hmacKey) else {
                throw .invalidUserToken(reason: "bad signature")
            }
        case "ES256":
            guard let publicKey else { throw .invalidUserToken(reason: "ES256 is not configured for this app") }
            guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
                publicKey.isValidSignature(ecdsa, for: signingInput)
            else { throw .invalidUserToken(reason: "bad signature") }
        default:
            throw .invalidUserToken(reason: "unsupported algorithm \(header.alg)")
        }
        guard let claims = try? JSONDecoder().decode(Claims.self, from: payload) else { throw .invalidUserToken(reason: "unreadable claims") }
        guard let expiry = claims.exp else { throw .invalidUserToken(reason: "no exp claim") }
        // Bounded as a Double before any conversion: `exp` is outside data, and an Int64 of -1e300
        // traps.
        let seconds = now.timeIntervalSince1970
        guard expiry >= 0, expiry <= seconds + maxLifetime else {
            throw .invalidUserToken(
                reason: "exp \(expiry) is not a time between 1970 and \(Int(maxLifetime)) s from now (userTokens.maxLifetimeSeconds)")
        }
        guard expiry > seconds else { throw .expiredUserToken(expiredAt: Int64(expiry.rounded(.down))) }
        guard let subject = claims.sub else { throw .invalidUserToken(reason: "no sub claim") }
        guard ConstantTime.equals(subject, user) else { throw .userMismatch(tokenSubject: subject, pathUser: user) }
    }
}

import Foundation

/// The ES256 bearer token the App Store Server API requires on every request.
///
/// A fresh token per request (Apple's recommendation), so a token never outlives the request it
/// authorises; header `{alg, kid, typ}` and claims `iss`, `iat`, `exp`, `aud`, `bid` (reference §3.6).
enum AppStoreServerAPIToken {
    /// The audience Apple expects.
    static let audience = "appstoreconnect-v1"

    struct Claims: Codable, Equatable {
        let iss: String
        let iat: Int64
        let exp: Int64
        let aud: String
        let bid: String
    }

    /// Signs a token valid from `now` for the configuration's lifetime.
    static func make(configuration: AppStoreServerAPIConfiguration, now: Date) throws -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            iss: configuration.issuerID,
            iat: issuedAt,
            exp: issuedAt + configuration.tokenLifetime.components.seconds,
            aud: audience,
            bid: configuration.bundleID
        )
        return try configuration.key.signJWT(claims: claims)
    }
}

import Foundation

/// The part the V2 promotional offer and introductory-offer-eligibility JWS share: header
/// `{alg: ES256, kid, typ: JWT}` and the base claims `iss`, `bid`, `aud`, `iat`, `nonce`, to which
/// each feature adds its own claims.
struct OfferJWSSigner: Sendable {
    let key: AppStoreConnectKey
    let issuerID: String
    let bundleID: String
    let audience: String

    /// The base claims followed by the feature's claims, in one JSON object.
    private struct Claims<Feature: Encodable>: Encodable {
        let iss: String
        let bid: String
        let aud: String
        let iat: Int64
        let nonce: String
        let feature: Feature

        private enum CodingKeys: String, CodingKey {
            case iss, bid, aud, iat, nonce
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(iss, forKey: .iss)
            try container.encode(bid, forKey: .bid)
            try container.encode(aud, forKey: .aud)
            try container.encode(iat, forKey: .iat)
            try container.encode(nonce, forKey: .nonce)
            try feature.encode(to: encoder)
        }
    }

    /// Signs `feature`'s claims issued at `issuedAt` (whole seconds) with `nonce` (lowercased).
    func sign(feature: some Encodable, nonce: UUID, issuedAt: Date) throws(OfferSignatureError) -> String {
        let claims = Claims(
            iss: issuerID, bid: bundleID, aud: audience,
            iat: Int64(issuedAt.timeIntervalSince1970.rounded(.down)),
            nonce: nonce.uuidString.lowercased(), feature: feature)
        do {
            return try key.signJWT(claims: claims)
        } catch {
            throw .signingFailed(String(describing: error))
        }
    }
}

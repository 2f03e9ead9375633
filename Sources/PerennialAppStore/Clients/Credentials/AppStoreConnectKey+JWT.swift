import Crypto
import Foundation

/// Signing JWTs with an App Store Connect key, shared by the Server API token and the offer
/// signatures, which all use the same header shape.
extension AppStoreConnectKey {
    /// The JOSE header Apple expects on every JWT signed with an App Store Connect key.
    private struct Header: Encodable {
        let alg = "ES256"
        let kid: String
        let typ = "JWT"
    }

    /// Signs `claims` as an ES256 compact JWS with header `{alg: ES256, kid, typ: JWT}`.
    func signJWT(claims: some Encodable) throws -> String {
        try JWSSigning.sign(header: Header(kid: keyID), payload: claims, key: privateKey)
    }
}

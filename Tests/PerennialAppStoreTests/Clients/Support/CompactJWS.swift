import Crypto
import Foundation
import PerennialAppStore

/// A compact JWS taken apart for assertions: decoded header and claims, and the signature checked
/// against a public key.
struct CompactJWS {
    let header: [String: any Sendable]
    let claims: [String: any Sendable]
    let signingInput: Data
    let signature: Data

    struct Malformed: Error {}

    init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = Base64URL.decode(parts[0]),
            let claimsData = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = try JSONSerialization.jsonObject(with: headerData) as? [String: any Sendable],
            let claims = try JSONSerialization.jsonObject(with: claimsData) as? [String: any Sendable]
        else { throw Malformed() }
        self.header = header
        self.claims = claims
        self.signingInput = Data((parts[0] + "." + parts[1]).utf8)
        self.signature = signature
    }

    /// Whether the raw r||s signature verifies under `key`.
    func isSigned(by key: P256.Signing.PublicKey) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return key.isValidSignature(signature, for: signingInput)
    }

    func string(_ name: String) -> String? { claims[name] as? String }
    func integer(_ name: String) -> Int64? { (claims[name] as? NSNumber)?.int64Value }
}

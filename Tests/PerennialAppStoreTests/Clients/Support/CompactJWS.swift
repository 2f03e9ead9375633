import Crypto
import Foundation
import PerennialAppStore

/// A compact JWS taken apart for assertions: decoded header and claims as dictionaries (so tests
/// can check exactly which keys were sent), and the signature checked against a public key. The
/// parsing is the library's ``JWSDecoding/parts(of:)``.
struct CompactJWS {
    let header: [String: any Sendable]
    let claims: [String: any Sendable]
    let parts: JWSDecoding.Parts

    struct NotAnObject: Error {}

    init(_ token: String) throws {
        parts = try JWSDecoding.parts(of: token)
        guard let header = try JSONSerialization.jsonObject(with: parts.headerJSON) as? [String: any Sendable],
            let claims = try JSONSerialization.jsonObject(with: parts.payload) as? [String: any Sendable]
        else { throw NotAnObject() }
        self.header = header
        self.claims = claims
    }

    /// Whether the signature verifies under `key`.
    func isSigned(by key: P256.Signing.PublicKey) -> Bool {
        key.isValidSignature(parts.signature, for: parts.signingInput)
    }

    func string(_ name: String) -> String? { claims[name] as? String }
    func integer(_ name: String) -> Int64? { (claims[name] as? NSNumber)?.int64Value }
}

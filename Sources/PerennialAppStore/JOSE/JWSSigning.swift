public import Crypto
public import Foundation

/// Produces ES256 compact JWS (`header.payload.signature`) with a raw r||s signature, the form
/// Apple signs its transactions, notifications and offers with, and the form it expects in the
/// App Store Server API's JWT and in offer signatures.
///
/// One implementation serves the simulator's signed payloads, the Server API client's tokens and
/// the offer signature creators, so all of them agree byte for byte on the encoding.
public enum JWSSigning {
    /// Signs `payload` under `header` (both already JSON) and returns the compact serialization.
    public static func sign(headerJSON: Data, payloadJSON: Data, key: P256.Signing.PrivateKey) throws -> String {
        let signingInput = Base64URL.encode(headerJSON) + "." + Base64URL.encode(payloadJSON)
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// Encodes `header` and `payload` with a deterministic JSON encoder (sorted keys) and signs them.
    public static func sign(header: some Encodable, payload: some Encodable, key: P256.Signing.PrivateKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try sign(headerJSON: encoder.encode(header), payloadJSON: encoder.encode(payload), key: key)
    }
}

public import Crypto
public import Foundation

/// Reads a compact JWS without verifying anything.
///
/// For `perennial jws decode`, and for Xcode and StoreKit-testing data, which are signed by a local
/// key no server can trust: such data is accepted only when that environment is configured
/// explicitly, and then through this door, never through `JWSVerifier`.
public enum JWSDecoding {
    /// A compact JWS taken apart but not trusted, with no assumption about its header's fields.
    public struct Parts: Sendable {
        /// The header JSON as sent; tokens Perennial signs name a key id (`kid`) instead of Apple's
        /// `x5c` chain, so it is not forced into ``JWSHeader``.
        public let headerJSON: Data
        /// The decoded payload bytes.
        public let payload: Data
        /// The bytes the signature covers: `header_b64 "." payload_b64`.
        public let signingInput: Data
        /// The raw r||s ES256 signature.
        public let signature: P256.Signing.ECDSASignature
    }

    /// The header and payload bytes of `compact`, unverified.
    public static func decodeUnverified(_ compact: String) throws(JWSVerificationError) -> (header: JWSHeader, payload: Data) {
        let jws = try CompactJWS(compact)
        return (try jws.header(), try jws.payload())
    }

    /// The payload bytes of `compact`, unverified, without reading its header: for a hint taken
    /// before verification (such as the environment a payload claims, which picks the verifier).
    public static func unverifiedPayload(of compact: String) throws(JWSVerificationError) -> Data {
        try CompactJWS(compact).payload()
    }

    /// Every part of `compact`, unverified, so a caller that holds the signer's public key (an API
    /// token or offer signature Perennial made itself) checks the signature with the same parser
    /// the verifier uses rather than a second one.
    public static func parts(of compact: String) throws(JWSVerificationError) -> Parts {
        let jws = try CompactJWS(compact)
        return Parts(
            headerJSON: try jws.headerJSON(),
            payload: try jws.payload(),
            signingInput: Data(jws.signingInput),
            signature: try jws.signature()
        )
    }
}

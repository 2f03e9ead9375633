public import Foundation

/// Reads a compact JWS without verifying anything.
///
/// For `perennial jws decode`, and for Xcode and StoreKit-testing data, which are signed by a local
/// key no server can trust: such data is accepted only when that environment is configured
/// explicitly, and then through this door, never through `JWSVerifier`.
public enum JWSDecoding {
    /// The header and payload bytes of `compact`, unverified.
    public static func decodeUnverified(_ compact: String) throws(JWSVerificationError) -> (header: JWSHeader, payload: Data) {
        let jws = try CompactJWS(compact)
        return (try jws.header(), try jws.payload())
    }
}

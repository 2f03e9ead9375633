import Crypto
import Foundation

/// Checks the server's Ed25519 signature over a subscriber answer's exact bytes
/// (`X-Perennial-Signature`, base64), so a proxy on the device's network cannot grant entitlements
/// by rewriting or forging answers, nor anyone with access to the device's files by editing the
/// cached one. The answer must also be about the user asked for, so another user's genuine answer
/// cannot be replayed in its place.
struct AnswerVerifier: Sendable {
    /// The response header carrying the signature.
    static let header = "X-Perennial-Signature"

    /// Nil when the configured bytes are no Ed25519 public key: every answer is then refused (a
    /// misconfiguration must not turn verification off).
    private let key: Curve25519.Signing.PublicKey?

    /// A verifier for the server's public key (32 raw bytes).
    init(publicKey: Data) {
        key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey)
    }

    /// Accepts `body` only when `signature` verifies over it and it is about `appUserID`. The answer
    /// keeps its signed bytes (``SubscriberResponse/signed``) for the cache.
    func verify(body: Data, signature: String?, appUserID: String) throws(ServerError) -> SubscriberResponse {
        guard let signature else { throw .unverifiedAnswer("the answer carries no \(Self.header)") }
        let signed = SignedAnswer(body: body, signature: signature)
        try check(signed)
        var response: SubscriberResponse
        do {
            response = try WireJSON.decoder().decode(SubscriberResponse.self, from: body)
        } catch {
            throw .decoding("SubscriberResponse: \(error)")
        }
        guard response.subscriber.appUserID == appUserID else {
            throw .unverifiedAnswer("a signed answer about '\(response.subscriber.appUserID)' came back for '\(appUserID)'")
        }
        response.signed = signed
        return response
    }

    /// Throws unless the signature of `signed` verifies over its body with the configured key: for
    /// an answer just received, and for one read back from disk.
    func check(_ signed: SignedAnswer) throws(ServerError) {
        guard let key else { throw .unverifiedAnswer("the configured answer-signing key is not 32 raw Ed25519 bytes") }
        guard let bytes = Data(base64Encoded: signed.signature), key.isValidSignature(bytes, for: signed.body) else {
            throw .unverifiedAnswer("the answer's signature does not verify with the configured public key")
        }
    }
}

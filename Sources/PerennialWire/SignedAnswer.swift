package import Foundation

/// A subscriber answer's exact bytes and the server's signature over them. The cache keeps these
/// rather than the decoded answer when answers are signed, so that it can verify the answer again
/// when it reads it back from disk: re-encoded JSON would no longer match the signature.
package struct SignedAnswer: Codable, Sendable, Equatable {
    /// The answer's body as the server sent it.
    package let body: Data
    /// The base64 Ed25519 signature over `body` (the SDK's `AnswerVerifier`).
    package let signature: String

    package init(body: Data, signature: String) {
        self.body = body
        self.signature = signature
    }
}

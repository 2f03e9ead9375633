import Foundation

/// A subscriber answer's exact bytes and the server's signature over them. The cache keeps these
/// rather than the decoded answer when answers are signed, so that it can verify the answer again
/// when it reads it back from disk: re-encoded JSON would no longer match the signature.
struct SignedAnswer: Codable, Sendable, Equatable {
    /// The answer's body as the server sent it.
    let body: Data
    /// The base64 Ed25519 signature over `body` (``AnswerVerifier/header``).
    let signature: String
}

import Crypto
import Foundation

/// Idempotency keys for evidence that has no id of its own (V1 notifications, posted receipts and
/// transactions): a SHA-256 of what makes two deliveries the same.
enum EvidenceDigest {
    /// `prefix:` + hex SHA-256 of the parts, each length-prefixed so that parts cannot run into
    /// each other (`("ab", "c")` and `("a", "bc")` differ).
    static func key(_ prefix: String, _ parts: Data...) -> String {
        var hasher = SHA256()
        for part in parts {
            withUnsafeBytes(of: UInt64(part.count).bigEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: part)
        }
        return prefix + ":" + hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

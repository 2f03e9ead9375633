import Crypto

/// Compares secrets without leaking, through timing, how much of a guess was right.
///
/// Both sides are hashed first (SHA-256), so the comparison loop always runs over 32 bytes
/// whatever the lengths, and the loop accumulates differences instead of returning early. `==` on
/// strings stops at the first different byte and must never be used on a key or a secret.
public enum ConstantTime {
    public static func equals(_ lhs: some Sequence<UInt8>, _ rhs: some Sequence<UInt8>) -> Bool {
        equalDigests(digest(lhs), digest(rhs))
    }

    public static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Array(lhs.utf8), Array(rhs.utf8))
    }

    /// The SHA-256 a comparison runs on: computed once for a stored secret, so that checking a
    /// presented one hashes only that one.
    public static func digest(_ secret: some Sequence<UInt8>) -> [UInt8] {
        Array(SHA256.hash(data: Array(secret)))
    }

    /// Whether two ``digest(_:)`` results are equal, looking at every byte whatever differs.
    public static func equalDigests(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<left.count { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}

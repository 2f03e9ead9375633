/// Deterministic event identifiers: the same fact derived twice — from the same views or from
/// another pair of views that both contain it — gets the same id, so consumers can deduplicate.
///
/// Swift's `Hasher` is randomly seeded per process, so ids are FNV-1a 64 over a stable string.
enum EventID {
    /// The id of an event: 16 lowercase hex digits of FNV-1a 64 over `parts` joined by `|`.
    static func make(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (index, part) in parts.enumerated() {
            if index > 0 { hash = (hash ^ UInt64(UInt8(ascii: "|"))) &* 0x0000_0100_0000_01b3 }
            for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

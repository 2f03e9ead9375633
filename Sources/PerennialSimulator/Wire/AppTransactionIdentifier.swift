/// The simulator's `appTransactionId`: Apple issues one per Apple Account and app (and one per
/// family member for Family Sharing), unchanged by redownloads, refunds or storefront changes.
///
/// Derived from the account and the bundle id with FNV-1a, so the same tester gets the same id on
/// every run and in every answer, as a customer does at Apple. Apple's ids are decimal strings
/// of 18 digits (`704289572311035000` style); these are too.
public enum AppTransactionIdentifier {
    /// The id of `accountID`'s download of `bundleID`.
    public static func of(accountID: String, bundleID: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (bundleID + "\u{0}" + accountID).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(700_000_000_000_000_000 + hash % 100_000_000_000_000_000)
    }
}

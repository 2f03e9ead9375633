/// The digest a receipt signature uses: SHA-1 like Apple's receipts before 2023, SHA-256 since.
public enum ReceiptDigest: String, Hashable, Sendable, CaseIterable {
    case sha1
    case sha256
}

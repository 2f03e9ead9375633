
/// Either kind of legacy receipt a device may send, recognised from its bytes, so that one entry
/// point (the CLI's `receipt decode`, the ingest route) handles both.
public enum ReceiptDocument: Hashable, Sendable {
    /// A PKCS#7 app receipt (iOS 7 and later).
    case appReceipt(ParsedAppReceipt)
    /// An iOS 6 `SKPaymentTransaction.transactionReceipt`.
    case transactionReceipt(TransactionReceipt)

    /// Decodes base64 text or raw bytes of either receipt kind: an OpenStep plist starts with `{`,
    /// anything else is parsed as PKCS#7.
    public static func decode(_ input: some Collection<UInt8>) throws(ReceiptError) -> ReceiptDocument {
        let bytes = try ReceiptInput.bytes(fromBase64OrDER: input)
        if bytes.first(where: { !$0.isReceiptTextWhitespace }) == UInt8(ascii: "{") {
            return .transactionReceipt(try TransactionReceipt(plist: bytes))
        }
        return .appReceipt(try AppReceiptParser.parse(bytes))
    }
}

public import Foundation

/// Turns what a client or a file holds — raw DER/BER bytes, or base64 text as `receipt-data` is
/// sent — into receipt bytes, so that every entry point accepts both.
public enum ReceiptInput {
    /// Raw bytes are recognised by their ASN.1 start (a SEQUENCE whose length does not fit one
    /// byte, as any receipt's does); anything else must be base64 text, whitespace and line breaks
    /// allowed.
    public static func bytes(fromBase64OrDER input: some Collection<UInt8>) throws(ReceiptError) -> Data {
        let bytes = Data(input)
        if bytes.count >= 2, bytes[bytes.startIndex] == 0x30, bytes[bytes.startIndex + 1] >= 0x80 {
            return bytes
        }
        let text = bytes.filter { !$0.isReceiptTextWhitespace }
        guard !text.isEmpty, let decoded = Data(base64Encoded: text) else {
            throw .malformed("input is neither DER nor base64")
        }
        return decoded
    }
}

extension UInt8 {
    /// Space, tab, CR, LF: what base64 files and pasted receipts carry between their characters.
    var isReceiptTextWhitespace: Bool {
        self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D
    }
}

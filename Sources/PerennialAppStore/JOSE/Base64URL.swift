public import Foundation

/// Base64url without padding (RFC 7515 §2), the alphabet of every JWS and JWT segment.
///
/// Apple's JWS use it for all three segments; Foundation only speaks the standard alphabet, so the
/// conversion lives here, once.
public enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    public static func encode(_ data: some DataProtocol) -> String {
        var text = Data(data).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Decodes unpadded (or padded) base64url; nil when the text is not base64url, including text
    /// in the standard alphabet (`+`, `/`), which a JWS never carries.
    ///
    /// A table-driven loop over the UTF-8 bytes: going through Foundation's standard-alphabet
    /// decoder costs an extra copy and string conversion per segment, and every notification
    /// decodes a dozen segments of several kilobytes.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var text = String(text)  // one conversion, then a contiguous UTF-8 buffer
        return text.withUTF8 { bytes -> Data? in
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
            guard end % 4 != 1 else { return nil }
            var output = Data(count: end * 3 / 4)
            let decoded = output.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Bool in
                var accumulator: UInt32 = 0
                var bits = 0
                var written = 0
                for index in 0..<end {
                    let value = sextets[Int(bytes[index])]
                    guard value < 64 else { return false }
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        out[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                        written += 1
                    }
                }
                return true
            }
            return decoded ? output : nil
        }
    }

    /// The value of each byte in the base64url alphabet; 255 for every other byte.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (value, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        return table
    }()
}

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
    public static func decode(_ text: some StringProtocol) -> Data? {
        decode(utf8: text.utf8)
    }

    /// Decodes the UTF-8 bytes of unpadded (or padded) base64url, such as a segment of a compact
    /// JWS still in its request buffer, without first making a `String` of it.
    ///
    /// Every notification decodes a dozen segments of several kilobytes, so this is a table-driven
    /// loop over contiguous bytes, four characters at a time, rather than a detour through
    /// Foundation's standard-alphabet decoder (an extra copy and string conversion per segment).
    public static func decode<Bytes: Collection<UInt8>>(utf8 bytes: Bytes) -> Data? {
        if let decoded = bytes.withContiguousStorageIfAvailable(decode(buffer:)) { return decoded }
        return Array(bytes).withUnsafeBufferPointer(decode(buffer:))
    }

    private static func decode(buffer bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
        let tail = end % 4
        guard tail != 1 else { return nil }
        var output = Data(count: end / 4 * 3 + max(tail - 1, 0))
        let decoded = output.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) -> Bool in
            let out = raw.bindMemory(to: UInt8.self)
            return sextets.withUnsafeBufferPointer { table -> Bool in
                var index = 0
                var written = 0
                while index + 4 <= end {
                    let a = table[Int(bytes[index])], b = table[Int(bytes[index + 1])]
                    let c = table[Int(bytes[index + 2])], d = table[Int(bytes[index + 3])]
                    guard (a | b | c | d) < 64 else { return false }
                    out[written] = a << 2 | b >> 4
                    out[written + 1] = b << 4 | c >> 2
                    out[written + 2] = c << 6 | d
                    index += 4
                    written += 3
                }
                guard tail > 0 else { return true }
                let a = table[Int(bytes[index])], b = table[Int(bytes[index + 1])]
                let c = tail == 3 ? table[Int(bytes[index + 2])] : 0
                guard (a | b | c) < 64 else { return false }
                out[written] = a << 2 | b >> 4
                if tail == 3 { out[written + 1] = b << 4 | c >> 2 }
                return true
            }
        }
        return decoded ? output : nil
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

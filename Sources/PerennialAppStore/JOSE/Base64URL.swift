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
        if text.contains("+") || text.contains("/") { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.hasSuffix("=") { standard.removeLast() }
        let remainder = standard.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { standard += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: standard)
    }
}

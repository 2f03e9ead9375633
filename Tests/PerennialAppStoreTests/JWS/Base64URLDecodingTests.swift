import Foundation
import PerennialAppStore
import Testing

/// `Base64URL.decode` (rewritten on UTF-8 bytes for the JWS hot path) keeps its contract: base64url
/// with or without padding in, nil for the standard alphabet and for impossible lengths.
struct Base64URLDecodingTests {
    @Test(arguments: 0..<70)
    func everyLengthRoundTrips(length: Int) {
        let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) })
        let encoded = Base64URL.encode(bytes)
        #expect(Base64URL.decode(encoded) == bytes)
        #expect(Base64URL.decode(encoded[...]) == bytes)
        let padded = encoded + String(repeating: "=", count: (4 - encoded.utf8.count % 4) % 4)
        #expect(Base64URL.decode(padded) == bytes)
    }

    @Test func urlAlphabetMapsToTheBytesStandardBase64Gives() {
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("-_-_") == Data(base64Encoded: "+/+/"))
    }

    @Test(arguments: ["+_8", "/w", "a", "abcde", "ab c", "ab\u{0}c", "é"])
    func nonBase64URLIsRejected(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}

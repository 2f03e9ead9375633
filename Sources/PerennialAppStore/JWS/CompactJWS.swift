import Crypto
import Foundation

/// A compact JWS (`header.payload.signature`) split on its UTF-8 bytes, before anything is trusted.
///
/// Splitting once and keeping byte offsets lets the verifier key the chain cache by the header
/// segment, hand the signing input to ECDSA without re-joining strings, and decode only the
/// segments a path needs.
struct CompactJWS {
    /// The UTF-8 bytes of the whole compact serialization.
    let bytes: [UInt8]
    /// The offset of the dot after the header segment.
    private let firstDot: Int
    /// The offset of the dot after the payload segment.
    private let secondDot: Int

    /// Splits `compact` into exactly three non-empty segments.
    init(_ compact: String) throws(JWSVerificationError) {
        let bytes = Array(compact.utf8)
        let dots = bytes.withUnsafeBufferPointer { buffer -> (first: Int?, second: Int?, third: Int?) in
            let dot = UInt8(ascii: ".")
            let first = buffer.offset(of: dot, in: 0..<buffer.count)
            let second = first.flatMap { buffer.offset(of: dot, in: ($0 + 1)..<buffer.count) }
            return (first, second, second.flatMap { buffer.offset(of: dot, in: ($0 + 1)..<buffer.count) })
        }
        guard let firstDot = dots.first, let secondDot = dots.second, dots.third == nil else {
            let found = [dots.first, dots.second, dots.third].compactMap { $0 }.count
            throw .malformed("a compact JWS has 3 dot-separated segments, found \(found + 1)\(found > 2 ? " or more" : "")")
        }
        guard firstDot > 0, secondDot > firstDot + 1, secondDot < bytes.count - 1 else {
            throw .malformed("a compact JWS segment is empty")
        }
        self.bytes = bytes
        self.firstDot = firstDot
        self.secondDot = secondDot
    }

    /// The base64url text of the header, which is also the identity of its certificate chain.
    var headerSegment: ArraySlice<UInt8> { bytes[..<firstDot] }

    /// The bytes the signature covers: `header_b64 "." payload_b64`.
    var signingInput: ArraySlice<UInt8> { bytes[..<secondDot] }

    /// The decoded header bytes, before any assumption about their fields.
    func headerJSON() throws(JWSVerificationError) -> Data {
        try Self.decode(bytes[..<firstDot], segment: "header")
    }

    /// The decoded header JSON, refused when it carries `crit` (see ``ProtectedHeader``).
    func header() throws(JWSVerificationError) -> JWSHeader {
        let json = try headerJSON()
        let header: ProtectedHeader
        do {
            header = try JSONDecoder().decode(ProtectedHeader.self, from: json)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .malformed("the header has no \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .malformed("the header's \(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type")
        } catch {
            throw .malformed("the header is not a JSON object")
        }
        return try header.checked()
    }

    /// The decoded payload bytes.
    func payload() throws(JWSVerificationError) -> Data {
        try Self.decode(bytes[(firstDot + 1)..<secondDot], segment: "payload")
    }

    /// The raw r||s ES256 signature.
    func signature() throws(JWSVerificationError) -> P256.Signing.ECDSASignature {
        let raw = try Self.decode(bytes[(secondDot + 1)...], segment: "signature")
        guard raw.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw) else {
            throw .malformed("the ES256 signature is \(raw.count) bytes, a raw r||s signature has 64")
        }
        return signature
    }

    private static func decode(_ segment: ArraySlice<UInt8>, segment name: String) throws(JWSVerificationError) -> Data {
        guard let data = Base64URL.decode(utf8: segment) else {
            throw .malformed("the \(name) segment is not base64url")
        }
        return data
    }
}

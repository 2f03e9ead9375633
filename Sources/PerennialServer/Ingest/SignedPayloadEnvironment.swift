import Foundation
import PerennialAppStore
import PerennialCore

/// The environment a signed payload claims, read before verification to pick the verifier of that
/// environment (each checks its own environment again after the signature, so a lie is caught).
///
/// Only a hint, so it is read cheaply: the payload segment is decoded, but not parsed as JSON (a
/// notification's payload carries kilobytes of nested JWS); the first `"environment"` key gives
/// the value (top level, or under `data`, `summary` or `appData`, whichever the payload has),
/// else `"receiptType"`. Inside a JSON string a quote is escaped, so a key cannot be faked there.
enum SignedPayloadEnvironment {
    /// The claimed environment, nil when the payload names none or is not a JWS.
    static func claimed(by signed: String) -> AppStoreEnvironment? {
        let segments = signed.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Base64URL.decode(Substring(segments[1])) else { return nil }
        let bytes = [UInt8](payload)
        let text = stringValue(of: "environment", in: bytes) ?? stringValue(of: "receiptType", in: bytes)
        return text.map(AppStoreEnvironment.init(rawValue:))
    }

    /// The string value of the first `"key"` in `json`, without parsing the rest.
    private static func stringValue(of key: String, in json: [UInt8]) -> String? {
        let pattern = Array("\"\(key)\"".utf8)
        var start = 0
        while let found = firstIndex(of: pattern, in: json, from: start) {
            var index = found + pattern.count
            skipWhitespace(json, &index)
            if index < json.count, json[index] == UInt8(ascii: ":") {
                index += 1
                skipWhitespace(json, &index)
                guard index < json.count, json[index] == UInt8(ascii: "\"") else { return nil }
                let valueStart = index + 1
                guard let valueEnd = json[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                return String(decoding: json[valueStart..<valueEnd], as: UTF8.self)
            }
            start = found + 1  // the text was a value, not a key
        }
        return nil
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard pattern.count <= bytes.count else { return nil }
        var index = start
        while index <= bytes.count - pattern.count {
            if bytes[index] == pattern[0], bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private static func skipWhitespace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// The verifier for the payload's environment, or the typed refusal.
    static func verifier(for signed: String, app: AppContext) throws(IngestError) -> SignedDataVerifier {
        let accepted = app.environments.map(\.rawValue)
        guard let claimed = claimed(by: signed) else {
            // Not even decodable: let any verifier produce the precise format error.
            guard let any = app.environments.lazy.compactMap(app.verifier(for:)).first else {
                throw .notConfigured("app \(app.id) accepts no environment")
            }
            return any
        }
        guard let verifier = app.verifier(for: claimed) else { throw .wrongEnvironment(accepted: accepted, actual: claimed.rawValue) }
        return verifier
    }
}

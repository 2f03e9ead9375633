import Foundation
import PerennialAppStore

/// A stored piece of evidence as the subscriber page shows it: its raw form as received, and
/// beside it every signed payload within it decoded (not verified again: it was verified when it
/// arrived, and the raw form is there to check). The one secret evidence carries, the shared
/// secret in a V1 notification's `password`, is redacted from both: a read-only key must not
/// learn it.
struct EvidenceDisplay: Sendable {
    /// The bytes as text when they are UTF-8, base64 otherwise (a PKCS#7 receipt).
    let raw: String
    /// Pretty JSON with nested JWS decoded; nil when nothing in it is JSON or JWS.
    let decoded: String?

    static let redacted = "(redacted)"

    init(raw data: Data) async {
        var text = String(data: data, encoding: .utf8)
        if let secret = Self.sharedSecret(in: data) { text = text?.replacingOccurrences(of: secret, with: Self.redacted) }
        raw = text ?? data.base64EncodedString()
        decoded = await Self.decode(text)
    }

    /// The `password` of a V1 notification body.
    private static func sharedSecret(in data: Data) -> String? {
        guard data.first == UInt8(ascii: "{"), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let password = object["password"] as? String, !password.isEmpty
        else { return nil }
        return password
    }

    private static func decode(_ text: String?) async -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        let open: (String) throws -> Data = { try JWSDecoding.unverifiedPayload(of: $0) }
        let object: [String: Any]
        do {
            if text.hasPrefix("{") {
                object = try await SignedPayloadJSON.expand(Data(text.utf8), open: open)
            } else if let payload = try? JWSDecoding.unverifiedPayload(of: text) {
                object = try await SignedPayloadJSON.expand(payload, open: open)
            } else {
                return nil
            }
        } catch {
            return nil
        }
        guard let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return String(decoding: pretty, as: UTF8.self)
    }
}

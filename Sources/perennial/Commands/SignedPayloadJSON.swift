import Foundation

/// Turns a JWS payload into a JSON object in which every nested JWS string (Apple nests
/// `signedTransactionInfo`, `signedRenewalInfo` and `signedAppTransactionInfo`) is replaced by its
/// decoded payload, so that one command shows the whole notification.
enum SignedPayloadJSON {
    struct NotAnObject: Error, CustomStringConvertible {
        var description: String { "the JWS payload is not a JSON object" }
    }

    static func keys(of payload: Data) throws -> Set<String> {
        guard let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any] else { throw NotAnObject() }
        return Set(object.keys)
    }

    /// `open` turns a nested compact JWS into its payload bytes (decoding or verifying it).
    static func expand(_ payload: Data, open: (String) async throws -> Data) async throws -> [String: Any] {
        guard var object = try JSONSerialization.jsonObject(with: payload) as? [String: Any] else { throw NotAnObject() }
        for (key, value) in object {
            if let nested = value as? [String: Any] {
                object[key] = try await expand(JSONSerialization.data(withJSONObject: nested), open: open)
            } else if key.hasPrefix("signed"), let text = value as? String, text.split(separator: ".").count == 3 {
                object[key] = try await expand(open(text), open: open)
            }
        }
        return object
    }
}

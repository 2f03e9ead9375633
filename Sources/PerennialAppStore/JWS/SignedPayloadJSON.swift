public import Foundation

/// Turns a JSON object in which Apple nests compact JWS strings (`signedTransactionInfo`,
/// `signedRenewalInfo`, `signedPayload`, arrays of `signedTransactions`…) into one in which each
/// is replaced by its decoded payload, so that one view shows the whole of what Apple sent:
/// `perennial jws decode` and the dashboard's evidence timeline.
public enum SignedPayloadJSON {
    public struct NotAnObject: Error, CustomStringConvertible {
        public var description: String { "the JWS payload is not a JSON object" }
    }

    public static func keys(of payload: Data) throws(NotAnObject) -> Set<String> {
        guard let object = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] else { throw NotAnObject() }
        return Set(object.keys)
    }

    /// `open` turns a nested compact JWS into its payload bytes (decoding or verifying it).
    public static func expand(_ payload: Data, open: (String) async throws -> Data) async throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] else { throw NotAnObject() }
        return try await expand(object, open: open)
    }

    private static func expand(_ object: [String: Any], open: (String) async throws -> Data) async throws -> [String: Any] {
        var object = object
        for (key, value) in object {
            object[key] = try await expand(value, signed: key.hasPrefix("signed"), open: open)
        }
        return object
    }

    /// `value` with its JWS strings opened when it sits under a `signed…` key, and every object
    /// within it expanded.
    private static func expand(_ value: Any, signed: Bool, open: (String) async throws -> Data) async throws -> Any {
        if let nested = value as? [String: Any] {
            return try await expand(nested, open: open)
        }
        if let array = value as? [Any] {
            var expanded: [Any] = []
            for element in array { expanded.append(try await expand(element, signed: signed, open: open)) }
            return expanded
        }
        if signed, let text = value as? String, text.split(separator: ".", omittingEmptySubsequences: false).count == 3 {
            return try await expand(open(text), open: open)
        }
        return value
    }
}

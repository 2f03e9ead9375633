public import Foundation

/// A JSON request body for the App Store Server API.
///
/// Endpoints take the body as ready bytes so this client stays independent of the request models:
/// callers encode their model (whose `Encodable` conformance owns Apple's field names and its
/// millisecond dates) or pass JSON they already hold.
public struct ServerAPIRequestBody: Sendable, Equatable {
    /// The JSON bytes sent.
    public let json: Data

    /// Wraps JSON bytes as they are.
    public init(json: Data) {
        self.json = json
    }

    /// Encodes a request model with a plain `JSONEncoder` (sorted keys, so requests are stable).
    public static func encoding(_ value: some Encodable) throws(AppStoreServerAPIError) -> Self {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Self(json: try encoder.encode(value))
        } catch {
            throw .invalidRequest("body of type \(type(of: value)) could not be encoded: \(error)")
        }
    }
}

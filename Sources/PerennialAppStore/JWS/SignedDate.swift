import Foundation

/// Reads the payload's `signedDate`, the instant Apple signed it, which is the default validation
/// time of the chain.
///
/// Apple writes it as a JSON number of milliseconds since 1970, fractional in Xcode data
/// (`1697679936711.0747`). Only this one field is read: the rest of the payload is the typed
/// decoders' business.
enum SignedDate {
    private struct Field: Decodable {
        let signedDate: Double?
    }

    /// The payload's `signedDate`; nil when the payload is a JSON object without one.
    static func read(from payload: Data) throws(JWSVerificationError) -> Date? {
        let field: Field
        do {
            field = try JSONDecoder().decode(Field.self, from: payload)
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
            throw .malformed("the payload's signedDate is not a number of milliseconds")
        } catch {
            throw .malformed("the payload is not a JSON object")
        }
        guard let milliseconds = field.signedDate else { return nil }
        guard milliseconds.isFinite else { throw .malformed("the payload's signedDate is not finite") }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}

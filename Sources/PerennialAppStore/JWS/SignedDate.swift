import Foundation

/// Reads the payload's `signedDate`, the instant Apple signed it, which is the default validation
/// time of the chain.
///
/// Apple writes it as a JSON number of milliseconds since 1970, fractional in Xcode data
/// (`1697679936711.0747`). Only this one field is read, with ``JSONFieldPeek``: the rest of the
/// payload is the typed decoders' business, and a notification's payload is kilobytes of nested JWS.
enum SignedDate {
    /// The payload's `signedDate`; nil when the payload is a JSON object without one.
    static func read(from payload: Data) throws(JWSVerificationError) -> Date? {
        let milliseconds: Double?
        do {
            milliseconds = try JSONFieldPeek.number(at: ["signedDate"], in: payload)
        } catch .wrongType {
            throw .malformed("the payload's signedDate is not a number of milliseconds")
        } catch {
            throw .malformed("the payload is not a JSON object")
        }
        guard let milliseconds else { return nil }
        guard milliseconds.isFinite else { throw .malformed("the payload's signedDate is not finite") }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}

public import Foundation

/// The instant at which a JWS's certificate chain must be valid.
///
/// Apple's libraries validate offline at the payload's `signedDate`: leaf certificates live about two
/// years, so validating a replayed or delayed notification at "now" would reject genuine old data.
/// "Now" is available on request, as an explicit instant from the caller's clock, so that no
/// verification path reads the wall clock by itself.
public enum JWSValidationTime: Sendable, Equatable {
    /// The payload's `signedDate` (milliseconds since 1970); a payload without one is malformed.
    case signedDate
    /// A fixed instant, typically the caller's clock's "now".
    case instant(Date)
}

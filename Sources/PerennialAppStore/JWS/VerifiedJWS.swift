public import Foundation
public import X509

/// A JWS whose chain and signature checked out, handed to the typed decoders.
///
/// The payload stays raw bytes: decoding it into transactions or notifications, and checking the
/// bundle id and environment, is the next layer's job.
public struct VerifiedJWS: Sendable {
    /// The protected header (its `x5c` is the verified chain as sent).
    public let header: JWSHeader
    /// The payload bytes that the signature covers.
    public let payload: Data
    /// The payload's `signedDate`, when it has one.
    public let signedDate: Date?
    /// The leaf certificate that signed the payload.
    public let leafCertificate: Certificate
}

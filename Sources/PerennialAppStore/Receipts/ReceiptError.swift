public import Foundation
import SwiftASN1

/// Why a receipt (PKCS#7 app receipt or iOS 6 transaction receipt) was rejected.
///
/// Receipts arrive from devices and from the network, so every input is hostile until verified:
/// each failure is a case naming its reason, so that logs, the API and the CLI can say exactly
/// what was wrong instead of "invalid receipt".
public enum ReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not the expected structure (truncated, random, wrong ASN.1 shape, bad value).
    case malformed(String)
    /// The PKCS#7 content type is not `signedData`; carries the content type OID.
    case notSignedData(contentType: String)
    /// A digest, signature or content OID Perennial does not verify.
    case unsupportedAlgorithm(String)
    /// The signer info names a certificate that is not among the CMS certificates.
    case missingSignerCertificate
    /// No chain from the signer certificate reaches one of the configured roots.
    case untrustedRoot
    /// A chain to a configured root exists but breaks a certificate policy (the reasons given).
    case invalidChain(String)
    /// The signer certificate had expired at the validation time.
    case expired(notValidAfter: Date, validationTime: Date)
    /// The signer certificate was not yet valid at the validation time.
    case notYetValid(notValidBefore: Date, validationTime: Date)
    /// The signature does not verify over the signed bytes with the signer certificate's key.
    case badSignature
    /// The signed attributes' `messageDigest` does not match the digest of the content.
    case badDigest
    /// A field that a record or a verification needs is absent; names the field.
    case missingField(String)

    /// A failure of the ASN.1 parser as a malformed receipt, named by its kind (its own
    /// description ends in a source file and line of swift-asn1, which tell a sender nothing).
    static func malformed(parsing error: any Error, in context: String) -> ReceiptError {
        .malformed("\(context): \((error as? ASN1Error).map { "invalid ASN.1 (\($0.code))" } ?? "\(error)")")
    }

    /// The description without the "malformed receipt: " that ``EvidenceError/malformedReceipt(_:)`` says itself.
    var reason: String {
        if case .malformed(let reason) = self { reason } else { description }
    }

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed receipt: \(reason)"
        case .notSignedData(let contentType): "not a PKCS#7 signedData (content type \(contentType))"
        case .unsupportedAlgorithm(let oid): "unsupported algorithm \(oid)"
        case .missingSignerCertificate: "the signer certificate is not among the receipt's certificates"
        case .untrustedRoot: "no certificate chain to a configured root"
        case .invalidChain(let reason): "invalid certificate chain: \(reason)"
        case .expired(let notValidAfter, let validationTime):
            "signer certificate expired at \(notValidAfter), validation time \(validationTime)"
        case .notYetValid(let notValidBefore, let validationTime):
            "signer certificate not valid before \(notValidBefore), validation time \(validationTime)"
        case .badSignature: "the receipt signature does not verify"
        case .badDigest: "the signed message digest does not match the receipt content"
        case .missingField(let field): "missing field \(field)"
        }
    }
}

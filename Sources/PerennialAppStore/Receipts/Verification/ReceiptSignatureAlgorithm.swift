import Crypto
import Foundation
import SwiftASN1
import X509

/// The digest and signature algorithm pairs an app receipt may use, mapped to what
/// swift-certificates verifies: RSA PKCS#1 v1.5 with SHA-1 (pre-2023 Apple receipts) or SHA-256,
/// and ECDSA P-256 with SHA-256. Anything else is ``ReceiptError/unsupportedAlgorithm(_:)``.
enum ReceiptSignatureAlgorithm {
    static func resolve(digest: ASN1ObjectIdentifier, signature: ASN1ObjectIdentifier) throws(ReceiptError) -> Certificate.SignatureAlgorithm {
        typealias OID = CMSObjectIdentifiers
        switch (signature, digest) {
        case (OID.rsaEncryption, OID.sha1), (OID.sha1WithRSAEncryption, OID.sha1): return .sha1WithRSAEncryption
        case (OID.rsaEncryption, OID.sha256), (OID.sha256WithRSAEncryption, OID.sha256): return .sha256WithRSAEncryption
        case (OID.ecdsaWithSHA256, OID.sha256): return .ecdsaWithSHA256
        case (OID.rsaEncryption, _), (OID.sha1WithRSAEncryption, _), (OID.sha256WithRSAEncryption, _), (OID.ecdsaWithSHA256, _):
            throw .unsupportedAlgorithm("digest \(digest) with signature \(signature)")
        default:
            throw .unsupportedAlgorithm("\(signature)")
        }
    }

    /// The digest of `content` with the signer's digest algorithm, for the `messageDigest` check.
    static func digest(_ content: Data, algorithm: ASN1ObjectIdentifier) throws(ReceiptError) -> Data {
        switch algorithm {
        case CMSObjectIdentifiers.sha1: Data(Insecure.SHA1.hash(data: content))
        case CMSObjectIdentifiers.sha256: Data(SHA256.hash(data: content))
        default: throw .unsupportedAlgorithm("\(algorithm)")
        }
    }
}

public import Foundation
public import SwiftASN1
public import X509

/// An app receipt split into its CMS pieces, with its payload decoded, before any verification.
///
/// Kept whole so that ``AppReceiptVerifier`` verifies exactly the bytes that were decoded, and
/// so that tools can show the certificates and algorithms of a receipt they cannot verify.
public struct ParsedAppReceipt: Hashable, Sendable {
    /// The signed content: the octets of `eContent` (a DER `SET OF ReceiptAttribute`).
    public var content: Data
    /// The certificates carried in the SignedData, in order (signer and intermediates).
    public var certificates: [Certificate]
    /// The digest algorithms listed at the SignedData level.
    public var digestAlgorithms: [ASN1ObjectIdentifier]
    public var signer: CMSSignerInfo
    public var receipt: AppReceipt

    public init(content: Data, certificates: [Certificate], digestAlgorithms: [ASN1ObjectIdentifier], signer: CMSSignerInfo, receipt: AppReceipt) {
        self.content = content
        self.certificates = certificates
        self.digestAlgorithms = digestAlgorithms
        self.signer = signer
        self.receipt = receipt
    }

    /// The certificate the signer info names, if the SignedData carries it.
    public var signerCertificate: Certificate? {
        certificates.first(where: signer.identifies)
    }
}

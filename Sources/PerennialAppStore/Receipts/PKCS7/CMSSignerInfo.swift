public import Foundation
public import SwiftASN1
public import X509

/// The single `SignerInfo` of an app receipt's CMS SignedData (RFC 5652 §5.3).
public struct CMSSignerInfo: Hashable, Sendable {
    /// How the signer names its certificate among the CMS certificates.
    public enum Identifier: Hashable, Sendable {
        case issuerAndSerialNumber(issuer: DistinguishedName, serialNumber: Certificate.SerialNumber)
        case subjectKeyIdentifier(Data)
    }

    public var identifier: Identifier
    public var digestAlgorithm: ASN1ObjectIdentifier
    /// `rsaEncryption` in Apple's receipts; `sha…WithRSAEncryption` or `ecdsa-with-SHA256` elsewhere.
    public var signatureAlgorithm: ASN1ObjectIdentifier
    /// Present when the signature covers signed attributes instead of the content itself.
    public var signedAttributes: CMSSignedAttributes?
    public var signature: Data

    public init(
        identifier: Identifier,
        digestAlgorithm: ASN1ObjectIdentifier,
        signatureAlgorithm: ASN1ObjectIdentifier,
        signedAttributes: CMSSignedAttributes?,
        signature: Data
    ) {
        self.identifier = identifier
        self.digestAlgorithm = digestAlgorithm
        self.signatureAlgorithm = signatureAlgorithm
        self.signedAttributes = signedAttributes
        self.signature = signature
    }

    /// Whether `certificate` is the one this signer info names.
    public func identifies(_ certificate: Certificate) -> Bool {
        switch identifier {
        case .issuerAndSerialNumber(let issuer, let serialNumber):
            return certificate.issuer == issuer && certificate.serialNumber == serialNumber
        case .subjectKeyIdentifier(let keyIdentifier):
            guard let extensionValue = try? certificate.extensions.subjectKeyIdentifier else { return false }
            return Data(extensionValue.keyIdentifier) == keyIdentifier
        }
    }
}

/// The signed attributes of a `SignerInfo`, when present.
///
/// The signature then covers `derEncoded` (the attributes re-tagged as a `SET OF`, RFC 5652
/// §5.4), and the content is bound through `messageDigest`.
public struct CMSSignedAttributes: Hashable, Sendable {
    /// The DER of the attributes with the `SET OF` tag: exactly the bytes the signature covers.
    public var derEncoded: Data
    public var messageDigest: Data?
    public var contentType: ASN1ObjectIdentifier?

    public init(derEncoded: Data, messageDigest: Data?, contentType: ASN1ObjectIdentifier?) {
        self.derEncoded = derEncoded
        self.messageDigest = messageDigest
        self.contentType = contentType
    }
}

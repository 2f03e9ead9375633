import Crypto
import _CryptoExtras
public import Foundation
import SwiftASN1
public import X509

/// A receipt-signing PKI (root → intermediate → signer, the shape of Apple's) that issues PKCS#7
/// app receipts as DER CMS SignedData.
///
/// Tests need receipts with chosen in-app records, algorithms and flaws, and the simulator needs
/// to sign the receipts it hands out; both configure ``root`` as the verifier's trusted root.
/// Generating RSA-2048 keys takes a noticeable fraction of a second: create one authority and
/// share it.
public struct ReceiptSigningAuthority: Sendable {
    /// The key type of all three certificates.
    public enum KeyType: String, Hashable, Sendable {
        /// RSA-2048 with PKCS#1 v1.5 signatures, as Apple signs receipts.
        case rsa2048
        /// ECDSA P-256, as some StoreKit-testing certificates are.
        case p256
    }

    /// The self-signed trust anchor to configure in ``AppReceiptVerifier``.
    public let root: Certificate
    public let intermediate: Certificate
    /// The certificate whose key signs receipts.
    public let signer: Certificate
    public let keyType: KeyType
    private let signerKey: SigningKey

    /// Generates the three keys and certificates. The signer's validity may end earlier than the
    /// CA certificates' (`signerNotValidAfter`), to produce receipts whose signer has expired.
    public init(
        name: String = "Perennial Receipt Signing",
        keyType: KeyType = .rsa2048,
        notValidBefore: Date,
        notValidAfter: Date,
        signerNotValidAfter: Date? = nil
    ) throws {
        let rootKey = try SigningKey(keyType)
        let intermediateKey = try SigningKey(keyType)
        let signerKey = try SigningKey(keyType)
        let rootName = try DistinguishedName {
            OrganizationName("Perennial")
            CommonName("\(name) Root CA")
        }
        let intermediateName = try DistinguishedName {
            OrganizationName("Perennial")
            CommonName("\(name) Intermediate CA")
        }
        let signerName = try DistinguishedName {
            OrganizationName("Perennial")
            CommonName(name)
        }
        let caExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: rootKey.publicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuer: rootName, subject: rootName, signatureAlgorithm: rootKey.certificateSignatureAlgorithm,
            extensions: caExtensions, issuerPrivateKey: rootKey.certificateKey
        )
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: intermediateKey.publicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuer: rootName, subject: intermediateName, signatureAlgorithm: rootKey.certificateSignatureAlgorithm,
            extensions: caExtensions, issuerPrivateKey: rootKey.certificateKey
        )
        signer = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: signerKey.publicKey,
            notValidBefore: notValidBefore, notValidAfter: signerNotValidAfter ?? notValidAfter,
            issuer: intermediateName, subject: signerName, signatureAlgorithm: intermediateKey.certificateSignatureAlgorithm,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
            },
            issuerPrivateKey: intermediateKey.certificateKey
        )
        self.keyType = keyType
        self.signerKey = signerKey
    }

    /// An iOS 6 transaction receipt (`SKPaymentTransaction.transactionReceipt`) for
    /// `purchaseInfo`, base64 as apps post it: the outer OpenStep plist with the base64
    /// `purchase-info` plist and a version-3 `signature` blob (the version byte, the signer's RSA
    /// SHA-1 signature over the version byte and the purchase info, the certificate's length as a
    /// big-endian 32-bit integer, the certificate), `environment` only in the sandbox.
    ///
    /// So the simulator can hand old apps what iOS 6 did, and its verifyReceipt can check them.
    ///
    /// - Throws: ``ReceiptError/unsupportedAlgorithm(_:)`` for a P-256 authority (Apple's iOS 6
    ///   receipts are RSA only).
    public func transactionReceipt(purchaseInfo: [String: String], environment: String?) throws -> String {
        guard case .rsa = signerKey else { throw ReceiptError.unsupportedAlgorithm("iOS 6 transaction receipts are signed with RSA") }
        let purchaseInfoBytes = Data(OpenStepPlist.text(purchaseInfo).utf8)
        let version: UInt8 = 3
        let signature = try signerKey.sign(Data([version]) + purchaseInfoBytes, digest: .sha1)
        var serializer = DER.Serializer()
        try serializer.serialize(signer)
        let certificate = serializer.serializedBytes
        var blob = Data([version]) + signature
        withUnsafeBytes(of: UInt32(certificate.count).bigEndian) { blob.append(contentsOf: $0) }
        blob.append(contentsOf: certificate)
        var outer = ["signature": blob.base64EncodedString(), "purchase-info": purchaseInfoBytes.base64EncodedString(), "pod": "100", "signing-status": "0"]
        outer["environment"] = environment
        return Data(OpenStepPlist.text(outer).utf8).base64EncodedString()
    }

    /// Encodes and signs a receipt.
    public func sign(_ receipt: AppReceipt, digest: ReceiptDigest = .sha256, withSignedAttributes: Bool = false) throws -> Data {
        try sign(payload: AppReceiptEncoder.payload(for: receipt), digest: digest, withSignedAttributes: withSignedAttributes)
    }

    /// Signs a payload (a DER `SET OF ReceiptAttribute`, or any bytes a test wants signed) and
    /// returns the DER `ContentInfo`. Apple's receipts sign the content directly; with
    /// `withSignedAttributes` the signature covers content-type and message-digest attributes
    /// instead, the other form RFC 5652 allows.
    public func sign(payload: Data, digest: ReceiptDigest = .sha256, withSignedAttributes: Bool = false) throws -> Data {
        let digestOID = digest == .sha1 ? CMSObjectIdentifiers.sha1 : CMSObjectIdentifiers.sha256
        var signedAttributes: [UInt8]?
        if withSignedAttributes {
            let contentDigest = try ReceiptSignatureAlgorithm.digest(payload, algorithm: digestOID)
            var serializer = DER.Serializer()
            try serializer.appendConstructedNode(identifier: .set) { set in
                try Self.appendAttribute(&set, CMSObjectIdentifiers.contentTypeAttribute) { try $0.serialize(CMSObjectIdentifiers.data) }
                try Self.appendAttribute(&set, CMSObjectIdentifiers.messageDigestAttribute) {
                    try $0.serialize(ASN1OctetString(contentBytes: ArraySlice(contentDigest)))
                }
            }
            signedAttributes = serializer.serializedBytes
        }
        let signature = try signerKey.sign(Data(signedAttributes ?? Array(payload)), digest: digest)

        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { contentInfo in
            try contentInfo.serialize(CMSObjectIdentifiers.signedData)
            try contentInfo.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) { explicit in
                try explicit.appendConstructedNode(identifier: .sequence) { signedData in
                    try signedData.serialize(1)
                    try signedData.appendConstructedNode(identifier: .set) { try Self.appendAlgorithm(&$0, digestOID, nullParameters: true) }
                    try signedData.appendConstructedNode(identifier: .sequence) { content in
                        try content.serialize(CMSObjectIdentifiers.data)
                        try content.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) {
                            try $0.serialize(ASN1OctetString(contentBytes: ArraySlice(payload)))
                        }
                    }
                    try signedData.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) { certificates in
                        try certificates.serialize(signer)
                        try certificates.serialize(intermediate)
                    }
                    try signedData.appendConstructedNode(identifier: .set) { signerInfos in
                        try signerInfos.appendConstructedNode(identifier: .sequence) { signerInfo in
                            try signerInfo.serialize(1)
                            try signerInfo.appendConstructedNode(identifier: .sequence) { identifier in
                                try identifier.serialize(signer.issuer)
                                try identifier.serialize(signer.serialNumber.bytes)
                            }
                            try Self.appendAlgorithm(&signerInfo, digestOID, nullParameters: true)
                            if var signedAttributes {
                                signedAttributes[0] = 0xA0
                                signerInfo.serializeRawBytes(signedAttributes)
                            }
                            switch keyType {
                            case .rsa2048: try Self.appendAlgorithm(&signerInfo, CMSObjectIdentifiers.rsaEncryption, nullParameters: true)
                            case .p256: try Self.appendAlgorithm(&signerInfo, CMSObjectIdentifiers.ecdsaWithSHA256, nullParameters: false)
                            }
                            try signerInfo.serialize(ASN1OctetString(contentBytes: ArraySlice(signature)))
                        }
                    }
                }
            }
        }
        return Data(serializer.serializedBytes)
    }

    private static func appendAlgorithm(_ serializer: inout DER.Serializer, _ algorithm: ASN1ObjectIdentifier, nullParameters: Bool) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { sequence in
            try sequence.serialize(algorithm)
            if nullParameters { try sequence.serialize(ASN1Null()) }
        }
    }

    private static func appendAttribute(
        _ serializer: inout DER.Serializer,
        _ type: ASN1ObjectIdentifier,
        _ value: (inout DER.Serializer) throws -> Void
    ) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { attribute in
            try attribute.serialize(type)
            try attribute.appendConstructedNode(identifier: .set, value)
        }
    }
}

/// One private key of the authority, RSA or P-256.
private enum SigningKey: Sendable {
    case rsa(_RSA.Signing.PrivateKey)
    case p256(P256.Signing.PrivateKey)

    init(_ type: ReceiptSigningAuthority.KeyType) throws {
        switch type {
        case .rsa2048: self = .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        case .p256: self = .p256(P256.Signing.PrivateKey())
        }
    }

    var publicKey: Certificate.PublicKey {
        switch self {
        case .rsa(let key): Certificate.PublicKey(key.publicKey)
        case .p256(let key): Certificate.PublicKey(key.publicKey)
        }
    }

    var certificateKey: Certificate.PrivateKey {
        switch self {
        case .rsa(let key): Certificate.PrivateKey(key)
        case .p256(let key): Certificate.PrivateKey(key)
        }
    }

    var certificateSignatureAlgorithm: Certificate.SignatureAlgorithm {
        switch self {
        case .rsa: .sha256WithRSAEncryption
        case .p256: .ecdsaWithSHA256
        }
    }

    /// The raw CMS signature: PKCS#1 v1.5 bytes for RSA, a DER `ECDSA-Sig-Value` for P-256.
    func sign(_ bytes: Data, digest: ReceiptDigest) throws -> Data {
        switch (self, digest) {
        case (.rsa(let key), .sha1):
            return try key.signature(for: Insecure.SHA1.hash(data: bytes), padding: .insecurePKCS1v1_5).rawRepresentation
        case (.rsa(let key), .sha256):
            return try key.signature(for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5).rawRepresentation
        case (.p256(let key), .sha256):
            return try key.signature(for: SHA256.hash(data: bytes)).derRepresentation
        case (.p256, .sha1):
            throw ReceiptError.unsupportedAlgorithm("ECDSA with SHA-1")
        }
    }
}

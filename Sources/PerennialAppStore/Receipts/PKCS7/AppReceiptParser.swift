import Foundation
import SwiftASN1
import X509

/// Parses a PKCS#7 app receipt: CMS `ContentInfo` → `SignedData` (RFC 5652), in DER or in the
/// indefinite-length BER Apple and Xcode actually emit, then decodes the payload.
///
/// Parsing checks structure only; trust comes from ``AppReceiptVerifier``. Every input — truncated,
/// random, hostile — ends in a ``ParsedAppReceipt`` or a ``ReceiptError``, never a crash.
public enum AppReceiptParser {
    /// Splits a receipt into its CMS pieces and decodes its attributes.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ReceiptError) -> ParsedAppReceipt {
        guard !bytes.isEmpty else { throw .malformed("empty input") }
        do {
            let root = try BER.parse(Array(bytes))
            return try BER.sequence(root, identifier: .sequence) { nodes in
                let contentType = try ASN1ObjectIdentifier(berEncoded: &nodes)
                guard contentType == CMSObjectIdentifiers.signedData else {
                    throw ReceiptError.notSignedData(contentType: contentType.description)
                }
                return try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific, parseSignedData)
            }
        } catch let error as ReceiptError {
            throw error
        } catch {
            throw .malformed(parsing: error, in: "PKCS#7 ContentInfo")
        }
    }

    private static func parseSignedData(_ node: ASN1Node) throws -> ParsedAppReceipt {
        try BER.sequence(node, identifier: .sequence) { nodes in
            _ = try Int(berEncoded: &nodes)
            let digestAlgorithms = try children(of: nodes.next(), identifier: .set, name: "digestAlgorithms").map(algorithm)
            let content = try encapsulatedContent(nodes.next())
            var certificates: [Certificate] = []
            if let certificateSet = BER.optionalImplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific, { $0 }) {
                certificates = try children(of: certificateSet, identifier: certificateSet.identifier, name: "certificates").map { child in
                    guard child.identifier == .sequence else {
                        throw ReceiptError.malformed("certificate choice \(child.identifier) is not an X.509 certificate")
                    }
                    return try Certificate(derEncoded: child)
                }
            }
            _ = BER.optionalImplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { $0 }
            let signers = try children(of: nodes.next(), identifier: .set, name: "signerInfos").map(signerInfo)
            guard signers.count == 1, let signer = signers.first else {
                throw ReceiptError.malformed("expected one signer, found \(signers.count)")
            }
            let receipt = try AppReceipt(payload: content)
            return ParsedAppReceipt(
                content: content,
                certificates: certificates,
                digestAlgorithms: digestAlgorithms,
                signer: signer,
                receipt: receipt
            )
        }
    }

    /// `EncapsulatedContentInfo ::= SEQUENCE { eContentType, eContent [0] EXPLICIT OCTET STRING }`;
    /// the octet string may be constructed (indefinite-length BER), and is then concatenated.
    private static func encapsulatedContent(_ node: ASN1Node?) throws -> Data {
        guard let node else { throw ReceiptError.malformed("missing encapContentInfo") }
        return try BER.sequence(node, identifier: .sequence) { nodes in
            let contentType = try ASN1ObjectIdentifier(berEncoded: &nodes)
            guard contentType == CMSObjectIdentifiers.data else {
                throw ReceiptError.malformed("encapsulated content type \(contentType) is not data")
            }
            let octets = try BER.optionalExplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) {
                try ASN1OctetString(berEncoded: $0)
            }
            guard let octets else { throw ReceiptError.malformed("detached content (no eContent)") }
            return Data(octets.bytes)
        }
    }

    private static func signerInfo(_ node: ASN1Node) throws -> CMSSignerInfo {
        try BER.sequence(node, identifier: .sequence) { nodes in
            _ = try Int(berEncoded: &nodes)
            guard let identifierNode = nodes.next() else { throw ReceiptError.malformed("missing signer identifier") }
            let identifier = try signerIdentifier(identifierNode)
            let digestAlgorithm = try algorithm(nodes.next())
            let signedAttributes = try BER.optionalImplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) {
                try parseSignedAttributes($0)
            }
            let signatureAlgorithm = try algorithm(nodes.next())
            let signature = try ASN1OctetString(berEncoded: &nodes)
            _ = BER.optionalImplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { $0 }
            return CMSSignerInfo(
                identifier: identifier,
                digestAlgorithm: digestAlgorithm,
                signatureAlgorithm: signatureAlgorithm,
                signedAttributes: signedAttributes,
                signature: Data(signature.bytes)
            )
        }
    }

    private static func signerIdentifier(_ node: ASN1Node) throws -> CMSSignerInfo.Identifier {
        if node.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            guard case .primitive(let keyIdentifier) = node.content else {
                throw ReceiptError.malformed("subjectKeyIdentifier is not primitive")
            }
            return .subjectKeyIdentifier(Data(keyIdentifier))
        }
        return try BER.sequence(node, identifier: .sequence) { nodes in
            guard let issuerNode = nodes.next() else { throw ReceiptError.malformed("missing signer issuer") }
            let issuer = try DistinguishedName(derEncoded: issuerNode)
            let serialNumber = try ArraySlice<UInt8>(derEncoded: &nodes)
            return .issuerAndSerialNumber(issuer: issuer, serialNumber: Certificate.SerialNumber(bytes: serialNumber))
        }
    }

    /// The signed attributes must be DER (RFC 5652 §5.3), because the signature covers their
    /// re-encoding as a `SET OF`; that re-encoding is then a re-tagging of the received bytes.
    private static func parseSignedAttributes(_ node: ASN1Node) throws -> CMSSignedAttributes {
        var derEncoded = Array(node.encodedBytes)
        guard derEncoded.count >= 2, derEncoded[1] != 0x80 else {
            throw ReceiptError.malformed("signed attributes are not DER encoded")
        }
        derEncoded[0] = 0x31
        var messageDigest: Data?
        var contentType: ASN1ObjectIdentifier?
        for attribute in try children(of: node, identifier: node.identifier, name: "signedAttrs") {
            try BER.sequence(attribute, identifier: .sequence) { nodes in
                let type = try ASN1ObjectIdentifier(berEncoded: &nodes)
                let values = try children(of: nodes.next(), identifier: .set, name: "attribute values")
                guard values.count == 1, let value = values.first else {
                    throw ReceiptError.malformed("signed attribute \(type) has \(values.count) values")
                }
                switch type {
                case CMSObjectIdentifiers.messageDigestAttribute:
                    messageDigest = Data(try ASN1OctetString(berEncoded: value).bytes)
                case CMSObjectIdentifiers.contentTypeAttribute:
                    contentType = try ASN1ObjectIdentifier(berEncoded: value)
                default:
                    break
                }
            }
        }
        return CMSSignedAttributes(derEncoded: Data(derEncoded), messageDigest: messageDigest, contentType: contentType)
    }

    /// `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`; the
    /// parameters of the algorithms receipts use are NULL or absent and carry nothing.
    private static func algorithm(_ node: ASN1Node?) throws -> ASN1ObjectIdentifier {
        guard let node else { throw ReceiptError.malformed("missing algorithm identifier") }
        return try BER.sequence(node, identifier: .sequence) { nodes in
            let algorithm = try ASN1ObjectIdentifier(berEncoded: &nodes)
            _ = nodes.next()
            return algorithm
        }
    }

    private static func children(of node: ASN1Node?, identifier: ASN1Identifier, name: String) throws -> [ASN1Node] {
        guard let node, node.identifier == identifier, case .constructed(let nodes) = node.content else {
            throw ReceiptError.malformed("\(name) is missing or not a constructed \(identifier)")
        }
        return Array(nodes)
    }
}

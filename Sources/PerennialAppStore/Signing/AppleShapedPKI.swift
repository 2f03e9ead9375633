public import Crypto
public import Foundation
import SwiftASN1
public import X509

/// A certificate chain shaped like Apple's App Store signing chain, with its private keys: a P-384
/// self-signed root, a P-384 intermediate CA carrying Apple's intermediate marker, and a P-256 leaf
/// carrying Apple's leaf marker.
///
/// The simulator signs transactions and notifications with it so that a Perennial server verifies
/// simulated data on exactly the path it uses for Apple's (only the trusted root differs), and tests
/// bend it (omit a marker, shorten a validity, change the root) to produce every rejection.
public struct AppleShapedPKI: Sendable {
    /// The root's certificate and key, to issue further chains under the same trusted root.
    public struct RootAuthority: Sendable {
        /// The self-signed root certificate.
        public let certificate: Certificate
        /// The root's signing key.
        public let privateKey: P384.Signing.PrivateKey

        /// Pairs a root certificate with its key.
        public init(certificate: Certificate, privateKey: P384.Signing.PrivateKey) {
            self.certificate = certificate
            self.privateKey = privateKey
        }
    }

    /// The knobs of `generate(_:)`; the defaults mirror Apple's chain.
    public struct Configuration: Sendable {
        /// Validity of the root (Apple Root CA - G3 lives 25 years).
        public var rootValidity: DateInterval
        /// Validity of the intermediate (Apple's WWDR CAs live about 15 years).
        public var intermediateValidity: DateInterval
        /// Validity of the leaf (Apple's signing leaves live about 2 years).
        public var leafValidity: DateInterval
        /// Whether the intermediate carries `AppleMarkerPolicy.intermediateMarker`.
        public var includesIntermediateMarker = true
        /// Whether the leaf carries `AppleMarkerPolicy.leafMarker`.
        public var includesLeafMarker = true
        /// An existing root to issue the intermediate under; nil generates a fresh root.
        public var root: RootAuthority?
        /// The organization in every subject, so simulated chains are recognisable.
        public var organization = "Perennial Simulator"

        /// Apple-like lifetimes starting at `validFrom` (inject the clock's now, minus some slack).
        public init(validFrom: Date) {
            let day: TimeInterval = 86_400
            rootValidity = DateInterval(start: validFrom, duration: 25 * 365 * day)
            intermediateValidity = DateInterval(start: validFrom, duration: 15 * 365 * day)
            leafValidity = DateInterval(start: validFrom, duration: 2 * 365 * day)
        }
    }

    /// The root certificate, the one a server configures as trusted.
    public let root: Certificate
    /// The root's signing key.
    public let rootKey: P384.Signing.PrivateKey
    /// The intermediate CA certificate.
    public let intermediate: Certificate
    /// The intermediate's signing key.
    public let intermediateKey: P384.Signing.PrivateKey
    /// The leaf certificate whose key signs each JWS.
    public let leaf: Certificate
    /// The leaf's ES256 signing key.
    public let leafKey: P256.Signing.PrivateKey

    /// Assembles a PKI from existing parts, checking that each key belongs to its certificate.
    public init(
        root: Certificate,
        rootKey: P384.Signing.PrivateKey,
        intermediate: Certificate,
        intermediateKey: P384.Signing.PrivateKey,
        leaf: Certificate,
        leafKey: P256.Signing.PrivateKey
    ) throws(AppleShapedPKIError) {
        guard root.publicKey == Certificate.PublicKey(rootKey.publicKey) else { throw .keyMismatch(role: "root") }
        guard intermediate.publicKey == Certificate.PublicKey(intermediateKey.publicKey) else {
            throw .keyMismatch(role: "intermediate")
        }
        guard leaf.publicKey == Certificate.PublicKey(leafKey.publicKey) else { throw .keyMismatch(role: "leaf") }
        self.root = root
        self.rootKey = rootKey
        self.intermediate = intermediate
        self.intermediateKey = intermediateKey
        self.leaf = leaf
        self.leafKey = leafKey
    }

    /// Generates fresh keys and certificates as `configuration` says.
    public static func generate(_ configuration: Configuration) throws(AppleShapedPKIError) -> AppleShapedPKI {
        let authority: RootAuthority
        if let root = configuration.root {
            authority = root
        } else {
            authority = try makeRoot(configuration)
        }
        let intermediateKey = P384.Signing.PrivateKey()
        let intermediateName = name("Perennial Worldwide Developer Relations CA", configuration)
        let intermediate = try issue(
            role: "intermediate",
            subject: intermediateName,
            publicKey: Certificate.PublicKey(intermediateKey.publicKey),
            validity: configuration.intermediateValidity,
            issuer: authority.certificate,
            issuerKey: Certificate.PrivateKey(authority.privateKey)
        ) {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            if configuration.includesIntermediateMarker { marker(AppleMarkerPolicy.intermediateMarker) }
        }
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try issue(
            role: "leaf",
            subject: name("Perennial App Store Receipt Signing", configuration),
            publicKey: Certificate.PublicKey(leafKey.publicKey),
            validity: configuration.leafValidity,
            issuer: intermediate,
            issuerKey: Certificate.PrivateKey(intermediateKey)
        ) {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            if configuration.includesLeafMarker { marker(AppleMarkerPolicy.leafMarker) }
        }
        return try AppleShapedPKI(
            root: authority.certificate,
            rootKey: authority.privateKey,
            intermediate: intermediate,
            intermediateKey: intermediateKey,
            leaf: leaf,
            leafKey: leafKey
        )
    }

    /// The root with its key, to issue another chain under it.
    public var rootAuthority: RootAuthority { RootAuthority(certificate: root, privateKey: rootKey) }

    /// The JWS `x5c` header value: leaf, intermediate, root, each as standard base64 DER.
    public var x5c: [String] { [leaf, intermediate, root].map { Self.der($0).base64EncodedString() } }

    /// The root certificate's DER, the form `TrustedRoots.load` and Apple's tooling read.
    public var rootDER: Data { Self.der(root) }

    /// Signs a JSON payload under Apple's header `{"alg":"ES256","x5c":[leaf,intermediate,root]}`.
    public func sign(payloadJSON: Data) throws(AppleShapedPKIError) -> String {
        do {
            return try JWSSigning.sign(headerJSON: Self.headerEncoder.encode(header), payloadJSON: payloadJSON, key: leafKey)
        } catch {
            throw .signing("\(error)")
        }
    }

    /// Encodes `payload` (dates must already be Apple's milliseconds) and signs it as `sign(payloadJSON:)`.
    public func sign(payload: some Encodable) throws(AppleShapedPKIError) -> String {
        do {
            return try JWSSigning.sign(header: header, payload: payload, key: leafKey)
        } catch {
            throw .signing("\(error)")
        }
    }

    /// The protected header every JWS of this PKI carries.
    public var header: JWSHeader { JWSHeader(alg: "ES256", x5c: x5c) }

    private static let headerEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func der(_ certificate: Certificate) -> Data {
        var serializer = DER.Serializer()
        // Serializing a parsed or freshly built certificate cannot fail: its fields are already valid.
        try? serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }

    private static func makeRoot(_ configuration: Configuration) throws(AppleShapedPKIError) -> RootAuthority {
        let key = P384.Signing.PrivateKey()
        let subject = name("Perennial Root CA - G3", configuration)
        let certificate = try issue(
            role: "root",
            subject: subject,
            publicKey: Certificate.PublicKey(key.publicKey),
            validity: configuration.rootValidity,
            issuerName: subject,
            issuerKeyIdentifier: SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey)).keyIdentifier,
            issuerKey: Certificate.PrivateKey(key)
        ) {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
        return RootAuthority(certificate: certificate, privateKey: key)
    }

    private static func issue(
        role: String,
        subject: DistinguishedName,
        publicKey: Certificate.PublicKey,
        validity: DateInterval,
        issuer: Certificate,
        issuerKey: Certificate.PrivateKey,
        @ExtensionsBuilder extensions: () -> Result<Certificate.Extensions, any Error>
    ) throws(AppleShapedPKIError) -> Certificate {
        let issuerKeyIdentifier = (try? issuer.extensions.subjectKeyIdentifier)??.keyIdentifier
            ?? SubjectKeyIdentifier(hash: issuer.publicKey).keyIdentifier
        return try issue(
            role: role,
            subject: subject,
            publicKey: publicKey,
            validity: validity,
            issuerName: issuer.subject,
            issuerKeyIdentifier: issuerKeyIdentifier,
            issuerKey: issuerKey,
            extensions: extensions
        )
    }

    private static func issue(
        role: String,
        subject: DistinguishedName,
        publicKey: Certificate.PublicKey,
        validity: DateInterval,
        issuerName: DistinguishedName,
        issuerKeyIdentifier: ArraySlice<UInt8>,
        issuerKey: Certificate.PrivateKey,
        @ExtensionsBuilder extensions: () -> Result<Certificate.Extensions, any Error>
    ) throws(AppleShapedPKIError) -> Certificate {
        do {
            var allExtensions = try extensions().get()
            try allExtensions.append(SubjectKeyIdentifier(hash: publicKey).makeCertificateExtension())
            try allExtensions.append(AuthorityKeyIdentifier(keyIdentifier: issuerKeyIdentifier).makeCertificateExtension())
            return try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: publicKey,
                notValidBefore: validity.start,
                notValidAfter: validity.end,
                issuer: issuerName,
                subject: subject,
                signatureAlgorithm: .ecdsaWithSHA384,
                extensions: allExtensions,
                issuerPrivateKey: issuerKey
            )
        } catch {
            throw .certificate(role: role, reason: "\(error)")
        }
    }

    /// Apple's marker extensions are non-critical and hold an ASN.1 NULL, as in Apple's certificates.
    private static func marker(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }

    private static func name(_ commonName: String, _ configuration: Configuration) -> DistinguishedName {
        // Building a name from valid PrintableString/UTF8String attributes cannot fail.
        (try? DistinguishedName {
            CountryName("US")
            OrganizationName(configuration.organization)
            CommonName(commonName)
        }) ?? DistinguishedName()
    }
}

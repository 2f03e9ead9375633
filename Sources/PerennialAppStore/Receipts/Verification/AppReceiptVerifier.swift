public import Foundation
@_spi(FixedExpiryValidationTime) public import X509

/// Verifies PKCS#7 app receipts: the signer certificate, its chain to one of the configured roots,
/// and the signature over the content.
///
/// Roots come from configuration — Apple Inc. Root for App Store receipts, the simulator's root,
/// or an Xcode StoreKit-testing certificate — so one verifier type serves production and tests.
/// The chain is validated at the receipt's creation date by default (like Apple's libraries do for
/// signed dates), so an archived receipt still verifies after its signer certificate expired.
public struct AppReceiptVerifier: Sendable {
    public let trustedRoots: [Certificate]

    public init(trustedRoots: [Certificate]) {
        self.trustedRoots = trustedRoots
    }

    /// Parses and verifies a receipt given as base64 text or DER/BER bytes.
    public func verify(bytes: some Collection<UInt8>, at validationTime: Date? = nil) async throws(ReceiptError) -> VerifiedAppReceipt {
        let parsed = try AppReceiptParser.parse(ReceiptInput.bytes(fromBase64OrDER: bytes))
        return try await verify(parsed, at: validationTime)
    }

    /// Verifies a parsed receipt; `validationTime` defaults to the receipt's creation date.
    public func verify(_ parsed: ParsedAppReceipt, at validationTime: Date? = nil) async throws(ReceiptError) -> VerifiedAppReceipt {
        let signer = try verifySignature(of: parsed)
        guard let time = validationTime ?? parsed.receipt.creationDate else {
            throw .missingField("receipt creation date (attribute 12), needed as validation time")
        }
        if time > signer.notValidAfter { throw .expired(notValidAfter: signer.notValidAfter, validationTime: time) }
        if time < signer.notValidBefore { throw .notYetValid(notValidBefore: signer.notValidBefore, validationTime: time) }
        var verifier = Verifier(rootCertificates: CertificateStore(trustedRoots)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            ReceiptSignerPolicy()
        }
        let intermediates = CertificateStore(parsed.certificates.filter { $0 != signer })
        switch await verifier.validate(leaf: signer, intermediates: intermediates) {
        case .validCertificate(let chain):
            return VerifiedAppReceipt(parsed: parsed, chain: Array(chain), validationTime: time)
        case .couldNotValidate(let failures) where failures.isEmpty:
            throw .untrustedRoot
        case .couldNotValidate(let failures):
            throw .invalidChain(failures.map { "\($0.policyFailureReason)" }.joined(separator: "; "))
        }
    }

    /// Checks the algorithms, finds the signer certificate and verifies the signature (and the
    /// `messageDigest` of signed attributes), without the chain; returns the signer certificate.
    ///
    /// Synchronous and independent of roots, so a tool can say "the signature is good, the root is
    /// unknown" and a benchmark can separate the two costs.
    public func verifySignature(of parsed: ParsedAppReceipt) throws(ReceiptError) -> Certificate {
        let algorithm = try ReceiptSignatureAlgorithm.resolve(
            digest: parsed.signer.digestAlgorithm,
            signature: parsed.signer.signatureAlgorithm
        )
        guard let signer = parsed.signerCertificate else { throw .missingSignerCertificate }
        var signedBytes = parsed.content
        if let attributes = parsed.signer.signedAttributes {
            let digest = try ReceiptSignatureAlgorithm.digest(parsed.content, algorithm: parsed.signer.digestAlgorithm)
            guard attributes.messageDigest == digest else { throw .badDigest }
            signedBytes = attributes.derEncoded
        }
        guard signer.publicKey.isValidSignature(parsed.signer.signature, for: signedBytes, signatureAlgorithm: algorithm) else {
            throw .badSignature
        }
        return signer
    }
}

import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// Full X.509 validation of a header's `x5c`: leaf → intermediate → a configured root, under
/// `RFC5280Policy` and `AppleMarkerPolicy`, at a given instant.
///
/// Like Apple's libraries, it takes the leaf and the intermediate from `x5c` and the root from the
/// trust store; `x5c[2]` is neither trusted nor parsed (Apple's own test data re-issues the root
/// under the same key, and parsing it would only add to the cold path). swift-certificates reports failed candidate chains with free-text
/// reasons, so each failure is diagnosed again with the rules' own functions into a typed error.
struct AppleChainValidator: Sendable {
    private let roots: CertificateStore

    init(trustedRoots: [Certificate]) {
        roots = CertificateStore(trustedRoots)
    }

    /// Validates the chain of `header` at `time`.
    func validate(_ header: JWSHeader, at time: Date) async throws(JWSVerificationError) -> VerifiedChain {
        guard header.x5c.count == 3 else { throw .chainLength(header.x5c.count) }
        let leaf = try Self.certificate(header.x5c[0], index: 0)
        let intermediate = try Self.certificate(header.x5c[1], index: 1)

        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            AppleMarkerPolicy()
        }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate])) {
        case .validCertificate(let chain):
            guard let leafKey = P256.Signing.PublicKey(leaf.publicKey) else {
                throw .invalidChain("the leaf certificate's key is not a P-256 key, which ES256 requires")
            }
            return VerifiedChain(header: header, leaf: leaf, leafKey: leafKey, window: ChainValidityWindow(chain: Array(chain)))
        case .couldNotValidate(let failures):
            throw Self.diagnose(failures, leaf: leaf, intermediate: intermediate, at: time)
        }
    }

    private static func certificate(_ base64: String, index: Int) throws(JWSVerificationError) -> Certificate {
        guard let der = Data(base64Encoded: base64) else {
            throw .malformed("x5c[\(index)] is not base64")
        }
        do {
            return try Certificate(derEncoded: Array(der))
        } catch {
            throw .malformed("x5c[\(index)] is not a DER X.509 certificate")
        }
    }

    /// The typed reason for a failed validation: the first candidate chain's broken rule, or, when no
    /// candidate reached a root, whether the leaf–intermediate link or the root is missing.
    private static func diagnose(
        _ failures: [CertificateValidationResult.PolicyFailure],
        leaf: Certificate,
        intermediate: Certificate,
        at time: Date
    ) -> JWSVerificationError {
        if let failure = failures.first {
            let chain = Array(failure.chain)
            if let violation = AppleMarkerPolicy.violation(in: chain) { return violation }
            if let violation = ChainValidityWindow(chain: chain).violation(at: time) { return violation }
            return .invalidChain(failure.policyFailureReason.description)
        }
        guard leaf.issuer == intermediate.subject,
            intermediate.publicKey.isValidSignature(leaf.signature, for: leaf)
        else {
            return .invalidChain("the leaf (issuer \(leaf.issuer)) is not signed by the intermediate (\(intermediate.subject))")
        }
        return .untrustedRoot("no configured root issued the intermediate (issuer \(intermediate.issuer))")
    }
}

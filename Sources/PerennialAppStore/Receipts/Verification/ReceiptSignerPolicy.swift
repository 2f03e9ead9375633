import SwiftASN1
import X509

/// The certificate rule specific to receipt signers, composed with `RFC5280Policy`.
///
/// Receipt signers mark their purpose differently (Apple's receipt-signing leaf, Xcode's
/// self-signed "StoreKit" certificate with a critical code-signing extended key usage), so the
/// purpose is not what identifies them: the configured root is. This policy therefore takes
/// responsibility for a critical extended key usage — which the verifier would otherwise reject as
/// unhandled — and asks only that a leaf restricting its key usage allows digital signatures.
struct ReceiptSignerPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.extendedKeyUsage]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        let keyUsage: KeyUsage?
        do {
            keyUsage = try chain.leaf.extensions.keyUsage
        } catch {
            return .failsToMeetPolicy(reason: "receipt signer key usage is malformed: \(error)")
        }
        if let keyUsage, !keyUsage.digitalSignature {
            return .failsToMeetPolicy(reason: "receipt signer key usage does not allow digital signatures")
        }
        return .meetsPolicy
    }
}

import Foundation
import X509

/// The span of time in which every certificate of a chain is valid: the latest `notValidBefore`
/// and the earliest `notValidAfter`, each with the role of the certificate that sets it.
///
/// The chain cache keeps it with each verified chain so that a cached chain is still rejected at a
/// validation time outside it; the verifier also uses it to name the certificate that made a chain
/// expire.
struct ChainValidityWindow: Sendable, Equatable {
    var notValidBefore: Date
    var notValidBeforeRole: String
    var notValidAfter: Date
    var notValidAfterRole: String

    /// The window of a chain ordered leaf first (`leaf`, `intermediate`, `root`).
    init(chain: [Certificate]) {
        notValidBefore = .distantPast
        notValidBeforeRole = "leaf"
        notValidAfter = .distantFuture
        notValidAfterRole = "leaf"
        for (index, certificate) in chain.enumerated() {
            let role = Self.role(at: index, of: chain.count)
            if certificate.notValidBefore > notValidBefore {
                notValidBefore = certificate.notValidBefore
                notValidBeforeRole = role
            }
            if certificate.notValidAfter < notValidAfter {
                notValidAfter = certificate.notValidAfter
                notValidAfterRole = role
            }
        }
    }

    /// Nil when `time` lies inside the window (bounds included, as RFC 5280 reads them), otherwise
    /// the typed rejection naming the certificate at fault.
    func violation(at time: Date) -> JWSVerificationError? {
        if time < notValidBefore {
            return .expired(
                validationTime: time,
                reason: "the \(notValidBeforeRole) certificate is not valid before \(notValidBefore.formatted(.iso8601))"
            )
        }
        if time > notValidAfter {
            return .expired(
                validationTime: time,
                reason: "the \(notValidAfterRole) certificate expired at \(notValidAfter.formatted(.iso8601))"
            )
        }
        return nil
    }

    private static func role(at index: Int, of count: Int) -> String {
        switch index {
        case 0: "leaf"
        case count - 1: "root"
        default: "intermediate"
        }
    }
}

public import SwiftASN1
public import X509

/// Apple's rule that an App Store signing chain is leaf → intermediate → root, with the
/// intermediate and the leaf carrying Apple's marker extensions.
///
/// RFC 5280 alone would accept any certificate a trusted root ever issued; the markers narrow trust
/// to the certificates Apple issues for App Store signing (the intermediate "Apple Worldwide
/// Developer Relations" CA and the "Mac App Store and iTunes Store Receipt Signing" leaf). Compose it
/// with `RFC5280Policy` in a `Verifier`.
public struct AppleMarkerPolicy: VerifierPolicy, Sendable {
    /// The marker of Apple's WWDR intermediate certificate authorities.
    public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// The marker of Apple's App Store receipt-signing leaf certificates.
    public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    /// Apple marks the extensions non-critical; should one ever arrive critical, this policy is the
    /// one that understands it.
    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [Self.intermediateMarker, Self.leafMarker]

    /// Creates the policy; it has no settings because Apple's rule has none.
    public init() {}

    /// Accepts a candidate chain only when it is leaf → intermediate → root with both markers present.
    public func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        guard let violation = Self.violation(in: Array(chain)) else { return .meetsPolicy }
        return .failsToMeetPolicy(reason: "AppleMarkerPolicy: \(violation)")
    }

    /// The rule's decision on a chain ordered leaf first: nil when it holds, otherwise the typed reason.
    ///
    /// Shared by the policy and by the verifier's diagnosis of a rejected chain, so the two cannot
    /// disagree.
    static func violation(in chain: [Certificate]) -> JWSVerificationError? {
        guard chain.count == 3 else {
            return .invalidChain("the path to the root has \(chain.count) certificates, Apple's has 3 (leaf, intermediate, root)")
        }
        if chain[0].extensions[oid: leafMarker] == nil {
            return .missingMarkerExtension(role: "leaf", oid: leafMarker.description)
        }
        if chain[1].extensions[oid: intermediateMarker] == nil {
            return .missingMarkerExtension(role: "intermediate", oid: intermediateMarker.description)
        }
        return nil
    }
}

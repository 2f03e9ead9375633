public import PerennialCore

/// Apple's `revocationType`, kept open.
public struct AppleRevocationType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A full refund.
    public static let refundFull: Self = "REFUND_FULL"
    /// A prorated refund (see `revocationPercentage`).
    public static let refundProrated: Self = "REFUND_PRORATED"
    /// Family Sharing access removed.
    public static let familyRevoke: Self = "FAMILY_REVOKE"
}

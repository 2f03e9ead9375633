public import PerennialCore

/// The developer's refund preference (`refundPreference` of the current Send Consumption Information), kept open.
public struct RefundPreference: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Prefer that Apple declines the refund.
    public static let decline: Self = "DECLINE"
    /// Prefer a full refund.
    public static let grantFull: Self = "GRANT_FULL"
    /// Prefer a prorated refund.
    public static let grantProrated: Self = "GRANT_PRORATED"
}

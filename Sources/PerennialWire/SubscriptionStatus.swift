/// A subscription's status as the server reports it; unknown values are kept, never fatal, so a
/// newer server can add states without breaking shipped apps.
public struct SubscriptionStatus: OpenWireValue {
    /// The wire value.
    public let rawValue: String

    /// Any value, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Paid and within its period.
    public static let active = SubscriptionStatus(rawValue: "active")
    /// Billing failed; access continues during Apple's grace period.
    public static let inGracePeriod = SubscriptionStatus(rawValue: "inGracePeriod")
    /// Billing failed; Apple keeps retrying, access has ended.
    public static let inBillingRetry = SubscriptionStatus(rawValue: "inBillingRetry")
    /// Ended and not renewed.
    public static let expired = SubscriptionStatus(rawValue: "expired")
    /// Refunded or revoked (family sharing removed, upgraded away).
    public static let revoked = SubscriptionStatus(rawValue: "revoked")
}

/// Apple's subscription `status` (`data.status`, `lastTransactions[].status`), kept open.
public struct AppleSubscriptionStatus: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Active.
    public static let active: Self = 1
    /// Expired.
    public static let expired: Self = 2
    /// In the billing retry period.
    public static let billingRetry: Self = 3
    /// In the billing grace period.
    public static let billingGracePeriod: Self = 4
    /// Revoked.
    public static let revoked: Self = 5
}

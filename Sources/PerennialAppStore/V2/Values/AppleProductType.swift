public import PerennialCore

/// Apple's transaction `type` string, kept open.
public struct AppleProductType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An auto-renewable subscription.
    public static let autoRenewable: Self = "Auto-Renewable Subscription"
    /// A non-consumable.
    public static let nonConsumable: Self = "Non-Consumable"
    /// A consumable.
    public static let consumable: Self = "Consumable"
    /// A non-renewing subscription.
    public static let nonRenewing: Self = "Non-Renewing Subscription"
}

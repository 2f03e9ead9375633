public import PerennialCore

/// A V2 notification's `subtype`, kept open for the same reason as `NotificationTypeV2`.
public struct NotificationSubtypeV2: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// First purchase.
    public static let initialBuy: Self = "INITIAL_BUY"
    /// Resubscribe within the same group.
    public static let resubscribe: Self = "RESUBSCRIBE"
    /// Downgrade effective at renewal.
    public static let downgrade: Self = "DOWNGRADE"
    /// Upgrade effective immediately.
    public static let upgrade: Self = "UPGRADE"
    /// Auto-renew turned on.
    public static let autoRenewEnabled: Self = "AUTO_RENEW_ENABLED"
    /// Auto-renew turned off.
    public static let autoRenewDisabled: Self = "AUTO_RENEW_DISABLED"
    /// Expired after the customer turned auto-renew off.
    public static let voluntary: Self = "VOLUNTARY"
    /// Expired after the billing retry window.
    public static let billingRetry: Self = "BILLING_RETRY"
    /// Expired because the customer did not consent to a price increase.
    public static let priceIncrease: Self = "PRICE_INCREASE"
    /// Billing failure inside a grace period.
    public static let gracePeriod: Self = "GRACE_PERIOD"
    /// Price increase awaiting consent.
    public static let pending: Self = "PENDING"
    /// Price increase accepted.
    public static let accepted: Self = "ACCEPTED"
    /// Renewal recovered after billing failure.
    public static let billingRecovery: Self = "BILLING_RECOVERY"
    /// Expired because the product was not for sale.
    public static let productNotForSale: Self = "PRODUCT_NOT_FOR_SALE"
    /// Mass extension finished (payload `summary`).
    public static let summary: Self = "SUMMARY"
    /// Mass extension failed for one subscription.
    public static let failure: Self = "FAILURE"
    /// External purchase token not reported.
    public static let unreported: Self = "UNREPORTED"
    /// External purchase token created.
    public static let created: Self = "CREATED"
    /// Reminder to report an active external purchase token.
    public static let activeTokenReminder: Self = "ACTIVE_TOKEN_REMINDER"
}

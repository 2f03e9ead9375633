public import PerennialCore

/// A V1 notification's `notification_type`, kept open. A hint for an event's reason; the
/// records in `unified_receipt` are the truth.
public struct NotificationTypeV1: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// First purchase of the subscription.
    public static let initialBuy: Self = "INITIAL_BUY"
    /// Refunded or cancelled by Apple Support (older docs: also upgrades).
    public static let cancel: Self = "CANCEL"
    /// Retired: renewal of an expired subscription after a failure; treat like ``didRecover``.
    public static let renewal: Self = "RENEWAL"
    /// Recovered through billing retry.
    public static let didRecover: Self = "DID_RECOVER"
    /// Renewed for a new period.
    public static let didRenew: Self = "DID_RENEW"
    /// Renewed or resubscribed interactively.
    public static let interactiveRenewal: Self = "INTERACTIVE_RENEWAL"
    /// Plan change effective at the next renewal.
    public static let didChangeRenewalPref: Self = "DID_CHANGE_RENEWAL_PREF"
    /// Auto-renew toggled.
    public static let didChangeRenewalStatus: Self = "DID_CHANGE_RENEWAL_STATUS"
    /// Billing failure.
    public static let didFailToRenew: Self = "DID_FAIL_TO_RENEW"
    /// Apple started asking consent to a price increase.
    public static let priceIncreaseConsent: Self = "PRICE_INCREASE_CONSENT"
    /// A refund.
    public static let refund: Self = "REFUND"
    /// Family Sharing access removed.
    public static let revoke: Self = "REVOKE"
    /// Refund requested for a consumable; send consumption information.
    public static let consumptionRequest: Self = "CONSUMPTION_REQUEST"
    /// A test notification.
    public static let test: Self = "TEST"
}

public import PerennialCore

/// A V2 `notificationType`, spelled exactly as Apple sends it, so the wire layer copies the raw
/// value into `NotificationTypeV2` without a translation table.
public struct SimulatedNotificationType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let subscribed: Self = "SUBSCRIBED"
    public static let didRenew: Self = "DID_RENEW"
    public static let didChangeRenewalPref: Self = "DID_CHANGE_RENEWAL_PREF"
    public static let didChangeRenewalStatus: Self = "DID_CHANGE_RENEWAL_STATUS"
    public static let didFailToRenew: Self = "DID_FAIL_TO_RENEW"
    public static let gracePeriodExpired: Self = "GRACE_PERIOD_EXPIRED"
    public static let expired: Self = "EXPIRED"
    public static let offerRedeemed: Self = "OFFER_REDEEMED"
    public static let priceIncrease: Self = "PRICE_INCREASE"
    public static let refund: Self = "REFUND"
    public static let refundDeclined: Self = "REFUND_DECLINED"
    public static let refundReversed: Self = "REFUND_REVERSED"
    public static let renewalExtended: Self = "RENEWAL_EXTENDED"
    public static let revoke: Self = "REVOKE"
    public static let oneTimeCharge: Self = "ONE_TIME_CHARGE"
}

/// A V2 `subtype`, spelled exactly as Apple sends it; a notification without one carries nil.
public struct SimulatedNotificationSubtype: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let initialBuy: Self = "INITIAL_BUY"
    public static let resubscribe: Self = "RESUBSCRIBE"
    public static let billingRecovery: Self = "BILLING_RECOVERY"
    public static let upgrade: Self = "UPGRADE"
    public static let downgrade: Self = "DOWNGRADE"
    public static let autoRenewEnabled: Self = "AUTO_RENEW_ENABLED"
    public static let autoRenewDisabled: Self = "AUTO_RENEW_DISABLED"
    public static let gracePeriod: Self = "GRACE_PERIOD"
    public static let voluntary: Self = "VOLUNTARY"
    public static let billingRetry: Self = "BILLING_RETRY"
    public static let priceIncrease: Self = "PRICE_INCREASE"
    public static let productNotForSale: Self = "PRODUCT_NOT_FOR_SALE"
    public static let pending: Self = "PENDING"
    public static let accepted: Self = "ACCEPTED"
}

public import PerennialCore

/// A V2 notification's `notificationType`, kept open because Apple adds types every year; it
/// hints at an event's reason while the signed records carry the truth.
public struct NotificationTypeV2: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// First purchase or resubscribe in a group.
    public static let subscribed: Self = "SUBSCRIBED"
    /// Renewed for a new period.
    public static let didRenew: Self = "DID_RENEW"
    /// Plan change (upgrade now, downgrade at renewal, or revert).
    public static let didChangeRenewalPref: Self = "DID_CHANGE_RENEWAL_PREF"
    /// Auto-renew turned on or off.
    public static let didChangeRenewalStatus: Self = "DID_CHANGE_RENEWAL_STATUS"
    /// Billing failure; grace period or billing retry.
    public static let didFailToRenew: Self = "DID_FAIL_TO_RENEW"
    /// Grace period over without recovery.
    public static let gracePeriodExpired: Self = "GRACE_PERIOD_EXPIRED"
    /// The subscription expired.
    public static let expired: Self = "EXPIRED"
    /// A promotional offer or offer code was redeemed.
    public static let offerRedeemed: Self = "OFFER_REDEEMED"
    /// A price increase is pending or accepted.
    public static let priceIncrease: Self = "PRICE_INCREASE"
    /// A refund was granted.
    public static let refund: Self = "REFUND"
    /// A developer-initiated refund request was declined.
    public static let refundDeclined: Self = "REFUND_DECLINED"
    /// A refund was reversed; the transaction grants again.
    public static let refundReversed: Self = "REFUND_REVERSED"
    /// Apple asks for consumption information about a refund request.
    public static let consumptionRequest: Self = "CONSUMPTION_REQUEST"
    /// One subscription's renewal date was extended.
    public static let renewalExtended: Self = "RENEWAL_EXTENDED"
    /// A mass renewal-date extension finished or failed for one subscription.
    public static let renewalExtension: Self = "RENEWAL_EXTENSION"
    /// Family Sharing access was removed.
    public static let revoke: Self = "REVOKE"
    /// A test notification requested through the Server API.
    public static let test: Self = "TEST"
    /// External purchase token lifecycle.
    public static let externalPurchaseToken: Self = "EXTERNAL_PURCHASE_TOKEN"
    /// Purchase of a consumable, non-consumable or non-renewing subscription.
    public static let oneTimeCharge: Self = "ONE_TIME_CHARGE"
    /// Consent rescinded (payload `appData`).
    public static let rescindConsent: Self = "RESCIND_CONSENT"
    /// Advanced Commerce metadata update.
    public static let metadataUpdate: Self = "METADATA_UPDATE"
    /// Advanced Commerce migration.
    public static let migration: Self = "MIGRATION"
    /// Advanced Commerce price change.
    public static let priceChange: Self = "PRICE_CHANGE"
}

public import Foundation

/// One transaction row of Apple's legacy formats: `receipt.in_app[]`, `latest_receipt_info[]`
/// (also inside `unified_receipt`), and the iOS 6-style single objects `latest_receipt_info` /
/// `latest_expired_receipt_info`.
///
/// Property names are Apple's keys. Millisecond fields decode to `Date` (written back as
/// decimal text); the formatted date strings stay text. In iOS 6-style objects `expires_date`
/// holds milliseconds and `expires_date_formatted` the date string, which is why `expires_date`
/// stays text here and normalization reads it.
public struct LegacyInAppTransaction: Codable, Hashable, Sendable {
    /// The app account UUID the purchase was made with, as text (may be `""`).
    public var app_account_token: String?
    public var cancellation_date: String?
    @Lenient<EpochMillisecondsText> public var cancellation_date_ms: Date?
    public var cancellation_date_pst: String?
    /// `"1"` the customer cited an issue with the app, `"0"` another reason.
    @Lenient<IntegerText<AppleRevocationReason>> public var cancellation_reason: AppleRevocationReason?
    public var expires_date: String?
    @Lenient<EpochMillisecondsText> public var expires_date_ms: Date?
    public var expires_date_pst: String?
    /// iOS 6-style objects only.
    public var expires_date_formatted: String?
    /// iOS 6-style objects only.
    public var expires_date_formatted_pst: String?
    public var in_app_ownership_type: AppleOwnershipType?
    @Lenient<TrueFalseText> public var is_in_intro_offer_period: Bool?
    @Lenient<TrueFalseText> public var is_trial_period: Bool?
    /// Present (`"true"`) only when the period was cancelled by an upgrade.
    @Lenient<TrueFalseText> public var is_upgraded: Bool?
    public var offer_code_ref_name: String?
    public var original_purchase_date: String?
    @Lenient<EpochMillisecondsText> public var original_purchase_date_ms: Date?
    public var original_purchase_date_pst: String?
    @Lenient<IdentifierText> public var original_transaction_id: String?
    public var product_id: String?
    public var promotional_offer_id: String?
    public var purchase_date: String?
    @Lenient<EpochMillisecondsText> public var purchase_date_ms: Date?
    public var purchase_date_pst: String?
    @Lenient<IntegerText<Int>> public var quantity: Int?
    @Lenient<IdentifierText> public var subscription_group_identifier: String?
    @Lenient<IdentifierText> public var transaction_id: String?
    @Lenient<IdentifierText> public var web_order_line_item_id: String?
    /// iOS 6-style objects: the app's Apple id.
    @Lenient<IdentifierText> public var item_id: String?
    /// iOS 6-style objects.
    @Lenient<IdentifierText> public var app_item_id: String?
    /// iOS 6-style objects: the bundle id.
    public var bid: String?
    /// iOS 6-style objects: the bundle version.
    public var bvrs: String?
    /// iOS 6-style objects.
    public var unique_identifier: String?
    /// iOS 6-style objects.
    public var unique_vendor_identifier: String?
    /// iOS 6-style objects.
    @Lenient<IdentifierText> public var version_external_identifier: String?

    /// Creates a row.
    public init(
        app_account_token: String? = nil,
        cancellation_date: String? = nil,
        cancellation_date_ms: Date? = nil,
        cancellation_date_pst: String? = nil,
        cancellation_reason: AppleRevocationReason? = nil,
        expires_date: String? = nil,
        expires_date_ms: Date? = nil,
        expires_date_pst: String? = nil,
        expires_date_formatted: String? = nil,
        expires_date_formatted_pst: String? = nil,
        in_app_ownership_type: AppleOwnershipType? = nil,
        is_in_intro_offer_period: Bool? = nil,
        is_trial_period: Bool? = nil,
        is_upgraded: Bool? = nil,
        offer_code_ref_name: String? = nil,
        original_purchase_date: String? = nil,
        original_purchase_date_ms: Date? = nil,
        original_purchase_date_pst: String? = nil,
        original_transaction_id: String? = nil,
        product_id: String? = nil,
        promotional_offer_id: String? = nil,
        purchase_date: String? = nil,
        purchase_date_ms: Date? = nil,
        purchase_date_pst: String? = nil,
        quantity: Int? = nil,
        subscription_group_identifier: String? = nil,
        transaction_id: String? = nil,
        web_order_line_item_id: String? = nil,
        item_id: String? = nil,
        app_item_id: String? = nil,
        bid: String? = nil,
        bvrs: String? = nil,
        unique_identifier: String? = nil,
        unique_vendor_identifier: String? = nil,
        version_external_identifier: String? = nil
    ) {
        self.app_account_token = app_account_token
        self.cancellation_date = cancellation_date
        self.cancellation_date_ms = cancellation_date_ms
        self.cancellation_date_pst = cancellation_date_pst
        self.cancellation_reason = cancellation_reason
        self.expires_date = expires_date
        self.expires_date_ms = expires_date_ms
        self.expires_date_pst = expires_date_pst
        self.expires_date_formatted = expires_date_formatted
        self.expires_date_formatted_pst = expires_date_formatted_pst
        self.in_app_ownership_type = in_app_ownership_type
        self.is_in_intro_offer_period = is_in_intro_offer_period
        self.is_trial_period = is_trial_period
        self.is_upgraded = is_upgraded
        self.offer_code_ref_name = offer_code_ref_name
        self.original_purchase_date = original_purchase_date
        self.original_purchase_date_ms = original_purchase_date_ms
        self.original_purchase_date_pst = original_purchase_date_pst
        self.original_transaction_id = original_transaction_id
        self.product_id = product_id
        self.promotional_offer_id = promotional_offer_id
        self.purchase_date = purchase_date
        self.purchase_date_ms = purchase_date_ms
        self.purchase_date_pst = purchase_date_pst
        self.quantity = quantity
        self.subscription_group_identifier = subscription_group_identifier
        self.transaction_id = transaction_id
        self.web_order_line_item_id = web_order_line_item_id
        self.item_id = item_id
        self.app_item_id = app_item_id
        self.bid = bid
        self.bvrs = bvrs
        self.unique_identifier = unique_identifier
        self.unique_vendor_identifier = unique_vendor_identifier
        self.version_external_identifier = version_external_identifier
    }
}

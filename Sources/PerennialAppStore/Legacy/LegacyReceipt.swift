public import Foundation

/// The `receipt` of a verifyReceipt answer: the decoded receipt that was sent.
///
/// For an app receipt it describes the app and lists `in_app`; for an iOS 6-style transaction
/// receipt Apple puts the one transaction's `purchase-info` keys here (with `-` spelled `_`),
/// which is why those keys are modelled too. Apple's keys as property names.
public struct LegacyReceipt: Codable, Hashable, Sendable {
    /// `Production`, `ProductionVPP`, `ProductionSandbox` or `ProductionVPPSandbox`.
    public var receipt_type: String?
    /// The app's Apple id; 0 in the sandbox.
    @Lenient<IntegerNumber<Int64>> public var adam_id: Int64?
    @Lenient<IntegerNumber<Int64>> public var app_item_id: Int64?
    public var bundle_id: String?
    public var application_version: String?
    @Lenient<IntegerNumber<Int64>> public var download_id: Int64?
    @Lenient<IntegerNumber<Int64>> public var version_external_identifier: Int64?
    public var receipt_creation_date: String?
    @Lenient<EpochMillisecondsText> public var receipt_creation_date_ms: Date?
    public var receipt_creation_date_pst: String?
    /// When Apple answered this verifyReceipt call; the version date of the records.
    public var request_date: String?
    @Lenient<EpochMillisecondsText> public var request_date_ms: Date?
    public var request_date_pst: String?
    public var original_purchase_date: String?
    @Lenient<EpochMillisecondsText> public var original_purchase_date_ms: Date?
    public var original_purchase_date_pst: String?
    public var original_application_version: String?
    /// Volume Purchase Program receipts only.
    public var expiration_date: String?
    @Lenient<EpochMillisecondsText> public var expiration_date_ms: Date?
    public var expiration_date_pst: String?
    /// Pre-orders only.
    public var preorder_date: String?
    @Lenient<EpochMillisecondsText> public var preorder_date_ms: Date?
    public var preorder_date_pst: String?
    public var in_app: [LegacyInAppTransaction]?

    // iOS 6-style transaction receipts: the purchase-info keys.
    @Lenient<IdentifierText> public var transaction_id: String?
    @Lenient<IdentifierText> public var original_transaction_id: String?
    public var product_id: String?
    @Lenient<IntegerText<Int>> public var quantity: Int?
    public var purchase_date: String?
    @Lenient<EpochMillisecondsText> public var purchase_date_ms: Date?
    public var purchase_date_pst: String?
    /// Milliseconds, as text, in iOS 6-style receipts.
    public var expires_date: String?
    public var expires_date_formatted: String?
    public var expires_date_formatted_pst: String?
    @Lenient<IdentifierText> public var web_order_line_item_id: String?
    @Lenient<TrueFalseText> public var is_trial_period: Bool?
    @Lenient<TrueFalseText> public var is_in_intro_offer_period: Bool?
    @Lenient<IdentifierText> public var item_id: String?
    public var bid: String?
    public var bvrs: String?
    public var unique_identifier: String?
    public var unique_vendor_identifier: String?

    /// Creates a receipt.
    public init(
        receipt_type: String? = nil,
        adam_id: Int64? = nil,
        app_item_id: Int64? = nil,
        bundle_id: String? = nil,
        application_version: String? = nil,
        download_id: Int64? = nil,
        version_external_identifier: Int64? = nil,
        receipt_creation_date: String? = nil,
        receipt_creation_date_ms: Date? = nil,
        receipt_creation_date_pst: String? = nil,
        request_date: String? = nil,
        request_date_ms: Date? = nil,
        request_date_pst: String? = nil,
        original_purchase_date: String? = nil,
        original_purchase_date_ms: Date? = nil,
        original_purchase_date_pst: String? = nil,
        original_application_version: String? = nil,
        expiration_date: String? = nil,
        expiration_date_ms: Date? = nil,
        expiration_date_pst: String? = nil,
        preorder_date: String? = nil,
        preorder_date_ms: Date? = nil,
        preorder_date_pst: String? = nil,
        in_app: [LegacyInAppTransaction]? = nil,
        transaction_id: String? = nil,
        original_transaction_id: String? = nil,
        product_id: String? = nil,
        quantity: Int? = nil,
        purchase_date: String? = nil,
        purchase_date_ms: Date? = nil,
        purchase_date_pst: String? = nil,
        expires_date: String? = nil,
        expires_date_formatted: String? = nil,
        expires_date_formatted_pst: String? = nil,
        web_order_line_item_id: String? = nil,
        is_trial_period: Bool? = nil,
        is_in_intro_offer_period: Bool? = nil,
        item_id: String? = nil,
        bid: String? = nil,
        bvrs: String? = nil,
        unique_identifier: String? = nil,
        unique_vendor_identifier: String? = nil
    ) {
        self.receipt_type = receipt_type
        self.adam_id = adam_id
        self.app_item_id = app_item_id
        self.bundle_id = bundle_id
        self.application_version = application_version
        self.download_id = download_id
        self.version_external_identifier = version_external_identifier
        self.receipt_creation_date = receipt_creation_date
        self.receipt_creation_date_ms = receipt_creation_date_ms
        self.receipt_creation_date_pst = receipt_creation_date_pst
        self.request_date = request_date
        self.request_date_ms = request_date_ms
        self.request_date_pst = request_date_pst
        self.original_purchase_date = original_purchase_date
        self.original_purchase_date_ms = original_purchase_date_ms
        self.original_purchase_date_pst = original_purchase_date_pst
        self.original_application_version = original_application_version
        self.expiration_date = expiration_date
        self.expiration_date_ms = expiration_date_ms
        self.expiration_date_pst = expiration_date_pst
        self.preorder_date = preorder_date
        self.preorder_date_ms = preorder_date_ms
        self.preorder_date_pst = preorder_date_pst
        self.in_app = in_app
        self.transaction_id = transaction_id
        self.original_transaction_id = original_transaction_id
        self.product_id = product_id
        self.quantity = quantity
        self.purchase_date = purchase_date
        self.purchase_date_ms = purchase_date_ms
        self.purchase_date_pst = purchase_date_pst
        self.expires_date = expires_date
        self.expires_date_formatted = expires_date_formatted
        self.expires_date_formatted_pst = expires_date_formatted_pst
        self.web_order_line_item_id = web_order_line_item_id
        self.is_trial_period = is_trial_period
        self.is_in_intro_offer_period = is_in_intro_offer_period
        self.item_id = item_id
        self.bid = bid
        self.bvrs = bvrs
        self.unique_identifier = unique_identifier
        self.unique_vendor_identifier = unique_vendor_identifier
    }
}

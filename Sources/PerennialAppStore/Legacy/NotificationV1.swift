public import Foundation

/// The body Apple POSTs to a V1 notification URL (`responseBodyV1`).
///
/// Current notifications carry their facts in `unified_receipt`. The top-level transaction fields
/// of pre-March-2021 notifications (`latest_receipt_info` as an iOS 6-style object,
/// `latest_expired_receipt_info`, `cancellation_date*`, …) are kept optional so archived bodies
/// can be replayed. Apple's keys as property names.
public struct NotificationV1: Codable, Hashable, Sendable {
    public var notification_type: NotificationTypeV1?
    /// The shared secret; compare it to the configured one before trusting anything else.
    public var password: String?
    /// `"PROD"` or `"Sandbox"`.
    public var environment: AppleEnvironment?
    @Lenient<IdentifierText> public var auto_renew_adam_id: String?
    public var auto_renew_product_id: String?
    /// `"true"` / `"false"` here (not `"0"`/`"1"`).
    @Lenient<TrueFalseText> public var auto_renew_status: Bool?
    public var auto_renew_status_change_date: String?
    @Lenient<EpochMillisecondsText> public var auto_renew_status_change_date_ms: Date?
    public var auto_renew_status_change_date_pst: String?
    /// An integer in Apple's V1 documentation (unlike `pending_renewal_info`'s text); text is read too.
    @Lenient<IntegerNumber<AppleExpirationIntent>> public var expiration_intent: AppleExpirationIntent?
    /// Bundle id.
    public var bid: String?
    /// Bundle version.
    public var bvrs: String?
    /// Not in Apple's current field list; seen in older bodies.
    @Lenient<IdentifierText> public var original_transaction_id: String?
    /// HTTP-date when V1 stops.
    public var deprecation: String?
    public var unified_receipt: UnifiedReceipt?

    // Removed 2021-03-10; kept for replaying archives.
    public var latest_receipt: String?
    public var latest_receipt_info: LegacyInAppTransaction?
    public var latest_expired_receipt: String?
    public var latest_expired_receipt_info: LegacyInAppTransaction?
    public var cancellation_date: String?
    @Lenient<EpochMillisecondsText> public var cancellation_date_ms: Date?
    public var cancellation_date_pst: String?
    @Lenient<IdentifierText> public var web_order_line_item_id: String?
    @Lenient<TrueFalseText> public var is_in_intro_offer_period: Bool?

    /// Creates a notification body.
    public init(
        notification_type: NotificationTypeV1? = nil,
        password: String? = nil,
        environment: AppleEnvironment? = nil,
        auto_renew_adam_id: String? = nil,
        auto_renew_product_id: String? = nil,
        auto_renew_status: Bool? = nil,
        auto_renew_status_change_date: String? = nil,
        auto_renew_status_change_date_ms: Date? = nil,
        auto_renew_status_change_date_pst: String? = nil,
        expiration_intent: AppleExpirationIntent? = nil,
        bid: String? = nil,
        bvrs: String? = nil,
        original_transaction_id: String? = nil,
        deprecation: String? = nil,
        unified_receipt: UnifiedReceipt? = nil,
        latest_receipt: String? = nil,
        latest_receipt_info: LegacyInAppTransaction? = nil,
        latest_expired_receipt: String? = nil,
        latest_expired_receipt_info: LegacyInAppTransaction? = nil,
        cancellation_date: String? = nil,
        cancellation_date_ms: Date? = nil,
        cancellation_date_pst: String? = nil,
        web_order_line_item_id: String? = nil,
        is_in_intro_offer_period: Bool? = nil
    ) {
        self.notification_type = notification_type
        self.password = password
        self.environment = environment
        self.auto_renew_adam_id = auto_renew_adam_id
        self.auto_renew_product_id = auto_renew_product_id
        self.auto_renew_status = auto_renew_status
        self.auto_renew_status_change_date = auto_renew_status_change_date
        self.auto_renew_status_change_date_ms = auto_renew_status_change_date_ms
        self.auto_renew_status_change_date_pst = auto_renew_status_change_date_pst
        self.expiration_intent = expiration_intent
        self.bid = bid
        self.bvrs = bvrs
        self.original_transaction_id = original_transaction_id
        self.deprecation = deprecation
        self.unified_receipt = unified_receipt
        self.latest_receipt = latest_receipt
        self.latest_receipt_info = latest_receipt_info
        self.latest_expired_receipt = latest_expired_receipt
        self.latest_expired_receipt_info = latest_expired_receipt_info
        self.cancellation_date = cancellation_date
        self.cancellation_date_ms = cancellation_date_ms
        self.cancellation_date_pst = cancellation_date_pst
        self.web_order_line_item_id = web_order_line_item_id
        self.is_in_intro_offer_period = is_in_intro_offer_period
    }
}

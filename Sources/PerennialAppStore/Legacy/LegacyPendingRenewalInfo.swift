public import Foundation

/// One element of `pending_renewal_info` (verifyReceipt and `unified_receipt`): what Apple says
/// about the next renewal of one subscription. Apple's keys; flags are `"0"`/`"1"` text.
public struct LegacyPendingRenewalInfo: Codable, Hashable, Sendable {
    /// The product the subscription renews into (differs from `product_id` after a downgrade).
    public var auto_renew_product_id: String?
    @Lenient<IntegerText<AppleAutoRenewStatus>> public var auto_renew_status: AppleAutoRenewStatus?
    /// Present for expired subscriptions; may be `""`.
    @Lenient<IntegerText<AppleExpirationIntent>> public var expiration_intent: AppleExpirationIntent?
    public var grace_period_expires_date: String?
    @Lenient<EpochMillisecondsText> public var grace_period_expires_date_ms: Date?
    public var grace_period_expires_date_pst: String?
    @Lenient<ZeroOneText> public var is_in_billing_retry_period: Bool?
    public var offer_code_ref_name: String?
    @Lenient<IdentifierText> public var original_transaction_id: String?
    /// Present only when the customer was asked to consent to a price increase.
    @Lenient<IntegerText<ApplePriceIncreaseStatus>> public var price_consent_status: ApplePriceIncreaseStatus?
    /// Newer spelling of the same fact (mirrors V2 `priceIncreaseStatus`).
    @Lenient<IntegerText<ApplePriceIncreaseStatus>> public var price_increase_status: ApplePriceIncreaseStatus?
    public var product_id: String?
    public var promotional_offer_id: String?

    /// Creates pending renewal info.
    public init(
        auto_renew_product_id: String? = nil,
        auto_renew_status: AppleAutoRenewStatus? = nil,
        expiration_intent: AppleExpirationIntent? = nil,
        grace_period_expires_date: String? = nil,
        grace_period_expires_date_ms: Date? = nil,
        grace_period_expires_date_pst: String? = nil,
        is_in_billing_retry_period: Bool? = nil,
        offer_code_ref_name: String? = nil,
        original_transaction_id: String? = nil,
        price_consent_status: ApplePriceIncreaseStatus? = nil,
        price_increase_status: ApplePriceIncreaseStatus? = nil,
        product_id: String? = nil,
        promotional_offer_id: String? = nil
    ) {
        self.auto_renew_product_id = auto_renew_product_id
        self.auto_renew_status = auto_renew_status
        self.expiration_intent = expiration_intent
        self.grace_period_expires_date = grace_period_expires_date
        self.grace_period_expires_date_ms = grace_period_expires_date_ms
        self.grace_period_expires_date_pst = grace_period_expires_date_pst
        self.is_in_billing_retry_period = is_in_billing_retry_period
        self.offer_code_ref_name = offer_code_ref_name
        self.original_transaction_id = original_transaction_id
        self.price_consent_status = price_consent_status
        self.price_increase_status = price_increase_status
        self.product_id = product_id
        self.promotional_offer_id = promotional_offer_id
    }
}

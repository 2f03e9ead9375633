/// The body verifyReceipt answers with, for app receipts and iOS 6-style transaction receipts.
///
/// `latest_receipt_info` is an array for app receipts and a single object for iOS 6 receipts
/// (``OneOrMany`` keeps which). Apple spells the retry flag `is_retryable` or `is-retryable`; both
/// are kept as sent and ``isRetryable`` reads either. The iOS 6 answer also carries renewal facts
/// at the top level (`auto_renew_status` as a number, `expiration_intent`, …).
public struct VerifyReceiptResponse: Codable, Hashable, Sendable {
    public var status: VerifyReceiptStatus
    public var environment: AppleEnvironment?
    public var receipt: LegacyReceipt?
    /// The newest base64 receipt; store it to ask again later.
    public var latest_receipt: String?
    public var latest_receipt_info: OneOrMany<LegacyInAppTransaction>?
    /// iOS 6-style answers with status 21006.
    public var latest_expired_receipt_info: LegacyInAppTransaction?
    public var pending_renewal_info: [LegacyPendingRenewalInfo]?
    @Lenient<BooleanValue> public var is_retryable: Bool?
    /// The older spelling, `is-retryable`.
    @Lenient<BooleanValue> public var is_retryable_hyphenated: Bool?
    /// Undocumented Java exception name on internal errors.
    public var exception: String?
    /// iOS 6-style answers: 0 or 1 as a number.
    public var auto_renew_status: AppleAutoRenewStatus?
    /// iOS 6-style answers.
    public var auto_renew_product_id: String?
    /// iOS 6-style answers.
    @Lenient<IntegerText<AppleExpirationIntent>> public var expiration_intent: AppleExpirationIntent?
    /// iOS 6-style answers.
    @Lenient<ZeroOneText> public var is_in_billing_retry_period: Bool?
    /// iOS 6-style answers.
    @Lenient<IntegerText<AppleRevocationReason>> public var cancellation_reason: AppleRevocationReason?

    /// Creates a response.
    public init(
        status: VerifyReceiptStatus,
        environment: AppleEnvironment? = nil,
        receipt: LegacyReceipt? = nil,
        latest_receipt: String? = nil,
        latest_receipt_info: OneOrMany<LegacyInAppTransaction>? = nil,
        latest_expired_receipt_info: LegacyInAppTransaction? = nil,
        pending_renewal_info: [LegacyPendingRenewalInfo]? = nil,
        is_retryable: Bool? = nil,
        is_retryable_hyphenated: Bool? = nil,
        exception: String? = nil,
        auto_renew_status: AppleAutoRenewStatus? = nil,
        auto_renew_product_id: String? = nil,
        expiration_intent: AppleExpirationIntent? = nil,
        is_in_billing_retry_period: Bool? = nil,
        cancellation_reason: AppleRevocationReason? = nil
    ) {
        self.status = status
        self.environment = environment
        self.receipt = receipt
        self.latest_receipt = latest_receipt
        self.latest_receipt_info = latest_receipt_info
        self.latest_expired_receipt_info = latest_expired_receipt_info
        self.pending_renewal_info = pending_renewal_info
        self.is_retryable = is_retryable
        self.is_retryable_hyphenated = is_retryable_hyphenated
        self.exception = exception
        self.auto_renew_status = auto_renew_status
        self.auto_renew_product_id = auto_renew_product_id
        self.expiration_intent = expiration_intent
        self.is_in_billing_retry_period = is_in_billing_retry_period
        self.cancellation_reason = cancellation_reason
    }

    /// Apple's retry flag, whichever spelling carried it; false when absent.
    public var isRetryable: Bool {
        Self.retryFlag(is_retryable, hyphenated: is_retryable_hyphenated)
    }

    /// The one reading of the two spellings, shared with ``Head`` so the client that classifies an
    /// answer and the model that stores it never disagree about retrying.
    static func retryFlag(_ underscored: Bool?, hyphenated: Bool?) -> Bool {
        underscored ?? hyphenated ?? false
    }

    /// Internal rather than private so ``Head`` reads the very same key spellings.
    enum CodingKeys: String, CodingKey {
        case status, environment, receipt, latest_receipt, latest_receipt_info, latest_expired_receipt_info
        case pending_renewal_info, is_retryable, exception, auto_renew_status, auto_renew_product_id
        case expiration_intent, is_in_billing_retry_period, cancellation_reason
        case is_retryable_hyphenated = "is-retryable"
    }
}

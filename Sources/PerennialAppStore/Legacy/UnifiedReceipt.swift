/// The `unified_receipt` of a V1 notification: the same facts a verifyReceipt call would return
/// at that moment (latest 100 transactions, pending renewal info).
public struct UnifiedReceipt: Codable, Hashable, Sendable {
    public var status: VerifyReceiptStatus?
    /// `Production` or `Sandbox` (unlike the notification's own `PROD`).
    public var environment: AppleEnvironment?
    public var latest_receipt: String?
    public var latest_receipt_info: [LegacyInAppTransaction]?
    public var pending_renewal_info: [LegacyPendingRenewalInfo]?

    /// Creates a unified receipt.
    public init(
        status: VerifyReceiptStatus? = nil,
        environment: AppleEnvironment? = nil,
        latest_receipt: String? = nil,
        latest_receipt_info: [LegacyInAppTransaction]? = nil,
        pending_renewal_info: [LegacyPendingRenewalInfo]? = nil
    ) {
        self.status = status
        self.environment = environment
        self.latest_receipt = latest_receipt
        self.latest_receipt_info = latest_receipt_info
        self.pending_renewal_info = pending_renewal_info
    }
}

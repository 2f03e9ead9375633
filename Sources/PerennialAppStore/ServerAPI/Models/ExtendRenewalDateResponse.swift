public import Foundation

/// The answer of Extend a Subscription Renewal Date.
public struct ExtendRenewalDateResponse: Codable, Hashable, Sendable {
    @Lenient<IdentifierText> public var originalTransactionId: String?
    @Lenient<IdentifierText> public var webOrderLineItemId: String?
    @Lenient<BooleanValue> public var success: Bool?
    /// The new renewal date.
    @Lenient<EpochMilliseconds> public var effectiveDate: Date?

    /// Creates a response.
    public init(
        originalTransactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        success: Bool? = nil,
        effectiveDate: Date? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.success = success
        self.effectiveDate = effectiveDate
    }
}

public import PerennialCore

/// Apple's `consumptionRequestReason` of a CONSUMPTION_REQUEST notification, kept open.
public struct ConsumptionRequestReason: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer did not mean to buy.
    public static let unintendedPurchase: Self = "UNINTENDED_PURCHASE"
    /// The purchase was not delivered.
    public static let fulfillmentIssue: Self = "FULFILLMENT_ISSUE"
    /// The customer is unhappy with it.
    public static let unsatisfiedWithPurchase: Self = "UNSATISFIED_WITH_PURCHASE"
    /// A legal reason.
    public static let legal: Self = "LEGAL"
    /// Any other reason.
    public static let other: Self = "OTHER"
}

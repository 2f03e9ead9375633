public import PerennialCore

/// Apple's `billingPlanType` / `renewalBillingPlanType` of commitment plans, kept open.
public struct BillingPlanType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The whole commitment is billed at once.
    public static let billedUpfront: Self = "BILLED_UPFRONT"
    /// Billed monthly over the commitment.
    public static let monthly: Self = "MONTHLY"

    /// The plans Apple documents: a retention answer offering any other plan shows nothing.
    public static let documented: [Self] = [.billedUpfront, .monthly]
}

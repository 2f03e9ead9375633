/// How the price of a subscription period is billed (Apple's `billingPlanType` and
/// `renewalBillingPlanType`, App Store Server API 1.21).
///
/// A product of one year may be sold as a monthly plan with a 12-month commitment: the customer
/// pays twelve monthly charges, each its own transaction, and cannot stop the remaining ones by
/// turning auto-renew off. See
/// https://developer.apple.com/documentation/appstoreserverapi/billingplantype and
/// https://developer.apple.com/documentation/storekit/supporting-monthly-subscriptions-with-a-12-month-commitment
public struct BillingPlan: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The whole period is charged at its start (every subscription before 2026, and Apple's
    /// `BILLED_UPFRONT`).
    public static let billedUpfront: Self = "billedUpfront"
    /// A monthly charge towards a commitment (`MONTHLY`).
    public static let monthly: Self = "monthly"
}

/// One counter kept per app, environment, UTC day, product, storefront and currency; every figure
/// of docs/analytics.md is a sum of these counters.
///
/// The `…Change` counters (raw values below 10, which storage's reads rely on) hold changes of a
/// point-in-time figure (+1 the day a paid period starts, −1 the day it ends): the figure at an
/// instant is their sum over every earlier day. The raw values are what storage keeps, so they
/// never change meaning.
public struct AnalyticsMetric: RawRepresentable, Sendable, Hashable, Comparable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let activeChange = Self(rawValue: 1)
    public static let trialChange = Self(rawValue: 2)
    public static let graceChange = Self(rawValue: 3)
    public static let retryChange = Self(rawValue: 4)
    /// Normalized monthly price of paid periods, in the currency's milli-units.
    public static let mrrGrossChange = Self(rawValue: 5)
    public static let mrrProceedsChange = Self(rawValue: 6)
    /// MRR proceeds under the Small Business Program (15 % commission from the first charge).
    public static let mrrProceedsSmallBusinessChange = Self(rawValue: 7)
    /// Paid periods whose price is unknown.
    public static let mrrPriceUnknownChange = Self(rawValue: 8)
    public static let revenueGross = Self(rawValue: 10)
    public static let revenueProceeds = Self(rawValue: 11)
    public static let revenueProceedsSmallBusiness = Self(rawValue: 12)
    public static let chargePriceUnknown = Self(rawValue: 13)
    public static let newTrial = Self(rawValue: 20)
    public static let trialEnded = Self(rawValue: 21)
    public static let trialConverted = Self(rawValue: 22)
    public static let newPaid = Self(rawValue: 23)
    public static let renewal = Self(rawValue: 24)
    public static let reactivation = Self(rawValue: 25)
    public static let churnVoluntary = Self(rawValue: 30)
    public static let churnInvoluntary = Self(rawValue: 31)
    public static let churnOther = Self(rawValue: 32)
    public static let billingRetryRecovery = Self(rawValue: 33)
    public static let refund = Self(rawValue: 40)
    public static let refundGross = Self(rawValue: 41)
    public static let refundProceeds = Self(rawValue: 42)
    public static let refundProceedsSmallBusiness = Self(rawValue: 43)
    public static let refundPriceUnknown = Self(rawValue: 44)
    /// Subscriptions whose first paid period started in the month of the counter's day (the
    /// month's first day).
    public static let cohortSize = Self(rawValue: 50)

    /// Of a cohort, the subscriptions paid `months` (1…12) months after their start; on the
    /// cohort month's first day.
    public static func cohortRetained(after months: Int) -> Self { Self(rawValue: 50 + months) }

    /// For a cohort retention counter, its number of months.
    public var cohortMonths: Int? { rawValue > 50 && rawValue <= 62 ? rawValue - 50 : nil }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

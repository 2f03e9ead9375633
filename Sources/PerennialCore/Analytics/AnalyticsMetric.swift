/// One counter kept per app, environment, UTC day, product, storefront and currency; every figure
/// of docs/analytics.md is a sum of these counters.
///
/// The `…Change` counters (raw values below 10 and from 70 to 79, which storage's reads rely on:
/// ``isChange``) hold changes of a point-in-time figure (+1 the day a paid period starts, −1 the
/// day it ends): the figure at an instant is their sum over every earlier day. The raw values are
/// what storage keeps, so they never change meaning.
///
/// A change the records foresee but no evidence has confirmed yet (a period's end after the
/// subscription's latest signed record) is also kept as a ``scheduled(_:)`` counter by the hour
/// it falls in: the figures of the current day leave out the hours still to come.
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
    /// Active paid subscriptions whose customer turned auto-renew off: scheduled churn.
    public static let autoRenewOffChange = Self(rawValue: 9)
    /// Free trials whose customer turned auto-renew off: they will not convert.
    public static let trialAutoRenewOffChange = Self(rawValue: 70)
    /// Normalized monthly gross price of the subscriptions in a grace period or billing retry:
    /// the revenue at risk.
    public static let mrrAtRiskChange = Self(rawValue: 71)
    public static let revenueGross = Self(rawValue: 10)
    public static let revenueProceeds = Self(rawValue: 11)
    public static let revenueProceedsSmallBusiness = Self(rawValue: 12)
    public static let chargePriceUnknown = Self(rawValue: 13)
    /// A charge (a paid period not family shared), and a charge that follows another of its
    /// subscription in the same UTC day, ISO week or calendar month: over a bucket that is that
    /// period, charges less repeats are the paying customers (distinct subscriptions charged).
    public static let charge = Self(rawValue: 27)
    public static let repeatChargeInDay = Self(rawValue: 14)
    public static let repeatChargeInWeek = Self(rawValue: 15)
    public static let repeatChargeInMonth = Self(rawValue: 16)
    /// A subscription becoming active (a trial or a paid period after time without either) for
    /// the first time in a day, week or month in which it had not been active before: with the
    /// actives and trials at a bucket's start, the customers of the bucket.
    public static let customerEnteredDay = Self(rawValue: 17)
    public static let customerEnteredWeek = Self(rawValue: 18)
    public static let customerEnteredMonth = Self(rawValue: 19)
    public static let newTrial = Self(rawValue: 20)
    public static let trialEnded = Self(rawValue: 21)
    public static let trialConverted = Self(rawValue: 22)
    public static let newPaid = Self(rawValue: 23)
    public static let renewal = Self(rawValue: 24)
    public static let reactivation = Self(rawValue: 25)
    /// Trials that ended unconverted with auto-renew off: cancelled by the customer.
    public static let trialCancellation = Self(rawValue: 26)
    public static let churnVoluntary = Self(rawValue: 30)
    public static let churnInvoluntary = Self(rawValue: 31)
    public static let churnOther = Self(rawValue: 32)
    public static let billingRetryRecovery = Self(rawValue: 33)
    /// Paid periods whose renewal charge failed: a grace period or billing retry began.
    public static let billingIssue = Self(rawValue: 34)
    /// Churns of a paid run that started on the same UTC day, ISO week or calendar month as the
    /// churn: subtracted from a bucket's churn, they leave the churn of those active at its start.
    public static let churnStartedSameDay = Self(rawValue: 35)
    public static let churnStartedSameWeek = Self(rawValue: 36)
    public static let churnStartedSameMonth = Self(rawValue: 37)
    public static let refund = Self(rawValue: 40)
    public static let refundGross = Self(rawValue: 41)
    public static let refundProceeds = Self(rawValue: 42)
    public static let refundProceedsSmallBusiness = Self(rawValue: 43)
    public static let refundPriceUnknown = Self(rawValue: 44)
    /// Of the paid periods whose renewal was due (their end, unless refunded or replaced by a
    /// plan change), by their number in their run of paid periods (1…4, then 5 for the fifth and
    /// later), on the day it was due; and of those, the ones that lapsed (no renewal nor recovery
    /// followed), on the same day: the renewed are the difference.
    public static func renewalDue(period: Int) -> Self { Self(rawValue: 62 + min(max(period, 1), renewalPeriods)) }
    public static func renewalLapsed(period: Int) -> Self { Self(rawValue: 44 + min(max(period, 1), renewalPeriods)) }
    /// The periods counted apart by ``renewalDue(period:)``: the last stands for itself and later.
    public static let renewalPeriods = 5

    /// Of a cohort, the gross revenue (less its refunds) charged in month `month` (0…11) after
    /// the first paid period's start; on the cohort month's first day: realized LTV.
    public static func cohortRevenue(month: Int) -> Self { Self(rawValue: 85 + month) }

    /// For a cohort revenue counter, its month (0…11).
    public var cohortRevenueMonth: Int? { (85...96).contains(rawValue) ? rawValue - 85 : nil }

    /// MRR movement (gross, milli-units, each a positive amount): what a new subscription, a
    /// change of price or plan, a churn and a reactivation add to or take from MRR, on the day
    /// MRR changes. Their net is exactly the change of ``mrrGrossChange``'s level.
    public static let mrrNew = Self(rawValue: 80)
    public static let mrrExpansion = Self(rawValue: 81)
    public static let mrrContraction = Self(rawValue: 82)
    public static let mrrChurned = Self(rawValue: 83)
    public static let mrrReactivation = Self(rawValue: 84)
    /// Subscriptions whose first paid period started in the month of the counter's day (the
    /// month's first day).
    public static let cohortSize = Self(rawValue: 50)

    /// Of a cohort, the subscriptions paid `months` (1…12) months after their start; on the
    /// cohort month's first day.
    public static func cohortRetained(after months: Int) -> Self { Self(rawValue: 50 + months) }

    /// For a cohort retention counter, its number of months.
    public var cohortMonths: Int? { rawValue > 50 && rawValue <= 62 ? rawValue - 50 : nil }

    /// Whether the counter holds changes of a point-in-time figure (summed over every earlier day).
    public var isChange: Bool { rawValue < 10 || (70..<80).contains(rawValue) }

    /// The part of `metric`'s counters foreseen but not confirmed, kept by the hour (its counter's
    /// day is the hour since 1970-01-01 UTC).
    public static func scheduled(_ metric: Self) -> Self { Self(rawValue: scheduledBase + metric.rawValue) }

    /// For a scheduled counter, the metric it foresees.
    public var scheduledMetric: Self? { rawValue >= Self.scheduledBase ? Self(rawValue: rawValue - Self.scheduledBase) : nil }

    private static let scheduledBase = 100

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

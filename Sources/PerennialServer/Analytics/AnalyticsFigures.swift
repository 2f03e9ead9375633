/// Every figure of one bucket (a day, a week or a month) of one segment, as defined in
/// docs/analytics.md. Money is in milli-units of the report's currency (``AnalyticsReport/currency``).
///
/// Point-in-time figures (actives, trials, grace, billing retry, MRR) are taken at the bucket's
/// end; flow figures (revenue, new trials, churn, refunds…) count what happened inside it.
public struct AnalyticsFigures: Sendable, Hashable, Codable {
    // At the bucket's end.
    public var activeSubscriptions: Int = 0
    public var activeTrials: Int = 0
    public var inGracePeriod: Int = 0
    public var inBillingRetry: Int = 0
    public var mrrGross: Int64 = 0
    public var mrrProceeds: Int64 = 0
    /// Active paid subscriptions whose price is unknown: counted in ``activeSubscriptions``, not in MRR.
    public var mrrPriceUnknown: Int = 0

    // During the bucket.
    public var revenueGross: Int64 = 0
    public var revenueProceeds: Int64 = 0
    /// Charges whose price is unknown: not in revenue.
    public var chargesPriceUnknown: Int = 0
    public var newTrials: Int = 0
    /// Trials whose free period ended in the bucket, converted or not.
    public var trialsEnded: Int = 0
    /// Trials that ended in the bucket and were followed by a paid period.
    public var trialConversions: Int = 0
    public var newPaidSubscriptions: Int = 0
    public var renewals: Int = 0
    public var reactivations: Int = 0
    /// Active paid subscriptions at the bucket's start.
    public var activeAtStart: Int = 0
    public var churnVoluntary: Int = 0
    public var churnInvoluntary: Int = 0
    /// Expiries for any other reason (declined price increase, product unavailable, refund, unknown).
    public var churnOther: Int = 0
    public var billingRetryRecoveries: Int = 0
    public var refunds: Int = 0
    public var refundsGross: Int64 = 0
    public var refundsProceeds: Int64 = 0
    /// Refunds of charges whose price is unknown: counted in ``refunds``, not in the amounts.
    public var refundsPriceUnknown: Int = 0

    public init() {}

    /// Converted trials over trials ended; nil when no trial ended.
    public var trialConversionRate: Double? { trialsEnded == 0 ? nil : Double(trialConversions) / Double(trialsEnded) }
    public var churn: Int { churnVoluntary + churnInvoluntary + churnOther }
    /// Churned over active at the bucket's start; nil when none was active.
    public var churnRate: Double? { activeAtStart == 0 ? nil : Double(churn) / Double(activeAtStart) }
    /// Refunded gross over revenue gross; nil without revenue.
    public var refundRate: Double? { revenueGross == 0 ? nil : Double(refundsGross) / Double(revenueGross) }
}

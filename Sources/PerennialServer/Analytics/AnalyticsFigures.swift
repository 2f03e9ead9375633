/// Every figure of one bucket (a day, a week or a month) of one segment, as defined in
/// docs/analytics.md. Money is in milli-units of the report's currency (``AnalyticsReport/currency``).
///
/// Point-in-time figures (actives, trials, grace, billing retry, MRR) are taken at the bucket's
/// end, or at the report's instant for the bucket of today; flow figures (revenue, new trials,
/// churn, refunds…) count what happened inside it, up to that instant.
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
    /// Active paid subscriptions with auto-renew off: scheduled to churn at their period's end.
    public var autoRenewOff: Int = 0
    /// Free trials with auto-renew off: scheduled to end unconverted.
    public var trialsAutoRenewOff: Int = 0
    /// Gross MRR of the subscriptions in a grace period or billing retry: what their recovery
    /// would keep.
    public var mrrAtRisk: Int64 = 0

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
    /// Trials that ended unconverted with auto-renew off.
    public var trialCancellations: Int = 0
    /// Active paid subscriptions at the bucket's start.
    public var activeAtStart: Int = 0
    public var churnVoluntary: Int = 0
    public var churnInvoluntary: Int = 0
    /// Expiries for any other reason (declined price increase, product unavailable, refund, unknown).
    public var churnOther: Int = 0
    /// Of ``churn``, the subscriptions active at the bucket's start (the churn rate's numerator);
    /// nil for a bucket clipped by the range, whose start is not its period's.
    public var churnOfActiveAtStart: Int?
    /// Churned of those active at the start over active at the start; for a range's total, the
    /// average over its whole buckets (their churn of actives at start over their actives at
    /// start). Nil when nobody was active at a start.
    public var churnRate: Double?
    /// Subscriptions active (paid or trial) at some instant of the bucket; nil for a bucket clipped
    /// at its start. For a range's total, the sum over its whole buckets.
    public var customers: Int?
    /// Subscriptions charged in the bucket; nil for a bucket clipped at its start.
    public var payingCustomers: Int?
    /// Average revenue per customer, gross milli-units (rounded down): revenue over customers;
    /// for a range's total, its whole buckets' revenue over their customers (per day, week or
    /// month). Nil without customers.
    public var arpu: Int64?
    /// Average revenue per paying customer, likewise.
    public var arppu: Int64?
    /// Paid periods whose renewal charge failed (a grace period or billing retry began).
    public var billingIssues: Int = 0
    public var billingRetryRecoveries: Int = 0
    public var refunds: Int = 0
    public var refundsGross: Int64 = 0
    public var refundsProceeds: Int64 = 0
    /// Refunds of charges whose price is unknown: counted in ``refunds``, not in the amounts.
    public var refundsPriceUnknown: Int = 0
    // MRR movement, gross: each a positive amount; ``mrrNetMovement`` is their net. Nil in a
    // report filtered or split by offer type (``AnalyticsQuery``), where it would not sum to MRR.
    public var mrrNew: Int64? = 0
    public var mrrExpansion: Int64? = 0
    public var mrrContraction: Int64? = 0
    public var mrrChurned: Int64? = 0
    public var mrrReactivation: Int64? = 0

    public init() {}

    /// Converted trials over trials ended; nil when no trial ended.
    public var trialConversionRate: Double? { trialsEnded == 0 ? nil : Double(trialConversions) / Double(trialsEnded) }
    public var churn: Int { churnVoluntary + churnInvoluntary + churnOther }
    /// Sets ARPU and ARPPU from `revenue` and the customers.
    mutating func setAverages(revenue: Int64) {
        arpu = customers.flatMap { $0 == 0 ? nil : revenue / Int64($0) }
        arppu = payingCustomers.flatMap { $0 == 0 ? nil : revenue / Int64($0) }
    }

    /// Recoveries over billing issues of the bucket; nil without a billing issue.
    public var billingRecoveryRate: Double? { billingIssues == 0 ? nil : Double(billingRetryRecoveries) / Double(billingIssues) }
    /// Annual run rate: twelve times MRR.
    public var arrGross: Int64 { mrrGross * 12 }
    public var arrProceeds: Int64 { mrrProceeds * 12 }
    /// Revenue less refunds.
    public var netRevenueGross: Int64 { revenueGross - refundsGross }
    public var netRevenueProceeds: Int64 { revenueProceeds - refundsProceeds }
    /// The bucket's change of gross MRR: new + expansion + reactivation − contraction − churned.
    public var mrrNetMovement: Int64? {
        guard let mrrNew, let mrrExpansion, let mrrReactivation, let mrrContraction, let mrrChurned else { return nil }
        return mrrNew + mrrExpansion + mrrReactivation - mrrContraction - mrrChurned
    }

    /// These figures with the MRR movement unknown.
    var withoutMovement: AnalyticsFigures {
        var figures = self
        (figures.mrrNew, figures.mrrExpansion, figures.mrrContraction, figures.mrrChurned, figures.mrrReactivation) = (nil, nil, nil, nil, nil)
        return figures
    }
    /// Refunded gross over revenue gross; nil without revenue.
    public var refundRate: Double? { revenueGross == 0 ? nil : Double(refundsGross) / Double(revenueGross) }
}

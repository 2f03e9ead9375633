extension AnalyticsFigures {
    /// One figure as the API writes it: a count or milli-units, or a rate (nil when undefined).
    enum Value: Equatable {
        case integer(Int64)
        /// A count or an amount that may be undefined (nil).
        case optional(Int64?)
        case rate(Double?)
    }

    /// Every figure under its API name, in the order of the CSV columns: the one list the JSON and
    /// CSV answers are written from.
    static let fields: [(name: String, value: @Sendable (AnalyticsFigures) -> Value)] = [
        ("activeSubscriptions", { .integer(Int64($0.activeSubscriptions)) }),
        ("activeTrials", { .integer(Int64($0.activeTrials)) }),
        ("inGracePeriod", { .integer(Int64($0.inGracePeriod)) }),
        ("inBillingRetry", { .integer(Int64($0.inBillingRetry)) }),
        ("mrrGross", { .integer($0.mrrGross) }),
        ("mrrProceeds", { .integer($0.mrrProceeds) }),
        ("mrrPriceUnknown", { .integer(Int64($0.mrrPriceUnknown)) }),
        ("arrGross", { .integer($0.arrGross) }),
        ("arrProceeds", { .integer($0.arrProceeds) }),
        ("autoRenewOff", { .integer(Int64($0.autoRenewOff)) }),
        ("trialsAutoRenewOff", { .integer(Int64($0.trialsAutoRenewOff)) }),
        ("mrrAtRisk", { .integer($0.mrrAtRisk) }),
        ("revenueGross", { .integer($0.revenueGross) }),
        ("revenueProceeds", { .integer($0.revenueProceeds) }),
        ("chargesPriceUnknown", { .integer(Int64($0.chargesPriceUnknown)) }),
        ("newTrials", { .integer(Int64($0.newTrials)) }),
        ("trialsEnded", { .integer(Int64($0.trialsEnded)) }),
        ("trialConversions", { .integer(Int64($0.trialConversions)) }),
        ("trialConversionRate", { .rate($0.trialConversionRate) }),
        ("newPaidSubscriptions", { .integer(Int64($0.newPaidSubscriptions)) }),
        ("renewals", { .integer(Int64($0.renewals)) }),
        ("reactivations", { .integer(Int64($0.reactivations)) }),
        ("trialCancellations", { .integer(Int64($0.trialCancellations)) }),
        ("activeAtStart", { .integer(Int64($0.activeAtStart)) }),
        ("churnVoluntary", { .integer(Int64($0.churnVoluntary)) }),
        ("churnInvoluntary", { .integer(Int64($0.churnInvoluntary)) }),
        ("churnOther", { .integer(Int64($0.churnOther)) }),
        ("churn", { .integer(Int64($0.churn)) }),
        ("churnOfActiveAtStart", { .optional($0.churnOfActiveAtStart.map(Int64.init)) }),
        ("churnRate", { .rate($0.churnRate) }),
        ("customers", { .optional($0.customers.map(Int64.init)) }),
        ("payingCustomers", { .optional($0.payingCustomers.map(Int64.init)) }),
        ("arpu", { .optional($0.arpu) }),
        ("arppu", { .optional($0.arppu) }),
        ("billingIssues", { .integer(Int64($0.billingIssues)) }),
        ("billingRetryRecoveries", { .integer(Int64($0.billingRetryRecoveries)) }),
        ("billingRecoveryRate", { .rate($0.billingRecoveryRate) }),
        ("refunds", { .integer(Int64($0.refunds)) }),
        ("refundsGross", { .integer($0.refundsGross) }),
        ("refundsProceeds", { .integer($0.refundsProceeds) }),
        ("refundsPriceUnknown", { .integer(Int64($0.refundsPriceUnknown)) }),
        ("refundRate", { .rate($0.refundRate) }),
        ("netRevenueGross", { .integer($0.netRevenueGross) }),
        ("netRevenueProceeds", { .integer($0.netRevenueProceeds) }),
        ("mrrNew", { .optional($0.mrrNew) }),
        ("mrrExpansion", { .optional($0.mrrExpansion) }),
        ("mrrContraction", { .optional($0.mrrContraction) }),
        ("mrrChurned", { .optional($0.mrrChurned) }),
        ("mrrReactivation", { .optional($0.mrrReactivation) }),
        ("mrrNetMovement", { .optional($0.mrrNetMovement) }),
    ]
}

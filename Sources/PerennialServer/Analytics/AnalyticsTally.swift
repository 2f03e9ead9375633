import PerennialCore

/// One segment's counters, day by day over the days a report reads, with the sum of the change
/// counters before them: turns counter rows into ``AnalyticsFigures`` for any bucket.
struct AnalyticsTally {
    /// The first day held (the day before the report's earliest bucket).
    let firstDay: Int
    let dayCount: Int
    /// Per metric, the values per day from `firstDay`, the change counters' earlier sum on day 0;
    /// once ``sealed()``, their running sums instead (`values[m][i]` = the sum of days before `i`).
    private var values: [AnalyticsMetric: [Int64]] = [:]
    private var isSealed = false

    init(firstDay: Int, lastDay: Int) {
        self.firstDay = firstDay
        self.dayCount = lastDay - firstDay + 1
    }

    mutating func add(_ value: Int64, _ metric: AnalyticsMetric, day: Int) {
        precondition(!isSealed, "a sealed tally takes no more counters")
        let index = max(0, day - firstDay)
        guard index < dayCount else { return }
        values[metric, default: Array(repeating: 0, count: dayCount)][index] += value
    }

    /// The tally with running sums, so that every bucket's figures cost a subtraction, not a walk
    /// over its days (a year by day asks for 365 of them).
    func sealed() -> AnalyticsTally {
        var copy = self
        for (metric, days) in values {
            var running: [Int64] = [0]
            running.reserveCapacity(days.count + 1)
            for value in days { running.append(running[running.count - 1] + value) }
            copy.values[metric] = running
        }
        copy.isSealed = true
        return copy
    }

    /// The sum of a metric over `[from, to)`; the tally must be sealed.
    func sum(_ metric: AnalyticsMetric, from: Int, to: Int) -> Int64 {
        precondition(isSealed, "seal the tally before reading it")
        guard let running = values[metric] else { return 0 }
        let lower = min(dayCount, max(0, from - firstDay))
        let upper = min(dayCount, max(0, to - firstDay))
        guard lower < upper else { return 0 }
        return running[upper] - running[lower]
    }

    /// A point-in-time figure at the first instant of `day`: its changes on every earlier day.
    func level(_ metric: AnalyticsMetric, at day: Int) -> Int64 {
        sum(metric, from: firstDay, to: day)
    }

    /// The counters that mark a subscription's event as its first or not in a day, week or month
    /// (``AnalyticsMetric``'s `…SameDay`, `…EnteredDay`, `repeatChargeInDay` and their weeks and months): summed over a bucket that
    /// starts where its period does, they give its churn of actives at start and its customers.
    struct PeriodMarks {
        var churnStarted: AnalyticsMetric
        var customerEntered: AnalyticsMetric
        var repeatCharge: AnalyticsMetric

        static let day = PeriodMarks(churnStarted: .churnStartedSameDay, customerEntered: .customerEnteredDay, repeatCharge: .repeatChargeInDay)
        static let week = PeriodMarks(churnStarted: .churnStartedSameWeek, customerEntered: .customerEnteredWeek, repeatCharge: .repeatChargeInWeek)
        static let month = PeriodMarks(churnStarted: .churnStartedSameMonth, customerEntered: .customerEnteredMonth, repeatCharge: .repeatChargeInMonth)
    }

    /// The figures of the bucket of days `[from, to)`; `marks` are its period's, nil for a
    /// bucket clipped at its start, whose churn of actives at start and customers are unknown.
    func figures(from: Int, to: Int, smallBusiness: Bool, marks: PeriodMarks?) -> AnalyticsFigures {
        var figures = AnalyticsFigures()
        figures.activeSubscriptions = Int(level(.activeChange, at: to))
        figures.activeTrials = Int(level(.trialChange, at: to))
        figures.inGracePeriod = Int(level(.graceChange, at: to))
        figures.inBillingRetry = Int(level(.retryChange, at: to))
        figures.mrrGross = level(.mrrGrossChange, at: to)
        figures.mrrProceeds = level(smallBusiness ? .mrrProceedsSmallBusinessChange : .mrrProceedsChange, at: to)
        figures.mrrPriceUnknown = Int(level(.mrrPriceUnknownChange, at: to))
        figures.autoRenewOff = Int(level(.autoRenewOffChange, at: to))
        figures.trialsAutoRenewOff = Int(level(.trialAutoRenewOffChange, at: to))
        figures.mrrAtRisk = level(.mrrAtRiskChange, at: to)
        figures.activeAtStart = Int(level(.activeChange, at: from))

        func count(_ metric: AnalyticsMetric) -> Int { Int(sum(metric, from: from, to: to)) }
        figures.revenueGross = sum(.revenueGross, from: from, to: to)
        figures.revenueProceeds = sum(smallBusiness ? .revenueProceedsSmallBusiness : .revenueProceeds, from: from, to: to)
        figures.chargesPriceUnknown = count(.chargePriceUnknown)
        figures.newTrials = count(.newTrial)
        figures.trialsEnded = count(.trialEnded)
        figures.trialConversions = count(.trialConverted)
        figures.newPaidSubscriptions = count(.newPaid)
        figures.renewals = count(.renewal)
        figures.reactivations = count(.reactivation)
        figures.trialCancellations = count(.trialCancellation)
        figures.churnVoluntary = count(.churnVoluntary)
        figures.churnInvoluntary = count(.churnInvoluntary)
        figures.churnOther = count(.churnOther)
        figures.billingIssues = count(.billingIssue)
        figures.billingRetryRecoveries = count(.billingRetryRecovery)
        figures.churnOfActiveAtStart = marks.map { figures.churn - count($0.churnStarted) }
        figures.customers = marks.map { Int(level(.activeChange, at: from) + level(.trialChange, at: from)) + count($0.customerEntered) }
        figures.payingCustomers = marks.map { count(.charge) - count($0.repeatCharge) }
        figures.setAverages(revenue: figures.revenueGross)
        if let churned = figures.churnOfActiveAtStart, figures.activeAtStart > 0 {
            figures.churnRate = Double(churned) / Double(figures.activeAtStart)
        }
        figures.refunds = count(.refund)
        figures.refundsGross = sum(.refundGross, from: from, to: to)
        figures.refundsProceeds = sum(smallBusiness ? .refundProceedsSmallBusiness : .refundProceeds, from: from, to: to)
        figures.refundsPriceUnknown = count(.refundPriceUnknown)
        figures.mrrNew = sum(.mrrNew, from: from, to: to)
        figures.mrrExpansion = sum(.mrrExpansion, from: from, to: to)
        figures.mrrContraction = sum(.mrrContraction, from: from, to: to)
        figures.mrrChurned = sum(.mrrChurned, from: from, to: to)
        figures.mrrReactivation = sum(.mrrReactivation, from: from, to: to)
        return figures
    }
}

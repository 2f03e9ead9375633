public import Foundation

/// What one auto-renewable subscription contributes to the analytics counters: a pure function of
/// its merged records and the catalog (never of the order evidence arrived in), so the apply can
/// replace a subscription's old contribution by its new one and a rebuild, summing every
/// subscription, finds the same counters. docs/analytics.md states each definition.
///
/// "Now" enters in one place only, and where no report looks: a foreseen change is kept by the
/// hour (``AnalyticsMetric/scheduled(_:)``) only from ``foreseenFromHour`` on, a day before the
/// instant the facts are computed at. Today's figures read the hours from the present one on, so
/// an hour a day past is never read again, yet a subscription that ended with no signed evidence
/// after its end kept its last hours forever. Every apply and rebuild computes its facts at its own
/// instant, later ones at later hours, so each hour a report reads was kept by all of them: its
/// counter is the same sum whatever the order of applies and rebuilds.
public struct SubscriptionFacts: Sendable {
    public let catalog: Catalog
    /// The first hour (hours since 1970-01-01 UTC) whose foreseen changes are kept by the hour.
    public let foreseenFromHour: Int

    /// The version of these definitions, raised whenever a change makes the counters of some
    /// records differ from what an earlier Perennial computed: a server finding counters of an
    /// older version rebuilds them once (`AnalyticsDefinitionsUpgrade`), since until then new
    /// figures would read zero and each apply, taking away a contribution computed the new way,
    /// would take away what the old way never added. 2 (2026-12-02): foreseen changes by the
    /// hour, MRR movement, customers, renewals by number, realized LTV, billing figures. 3
    /// (2026-12-02): counters kept by offer type too, and the second dimension storage keeps
    /// by storefront, product and offer type together.
    public static let definitions = 3

    /// The facts as computed at `now`: the instant matters only for which foreseen changes are
    /// kept by the hour (those from a day before it on; a day's margin for clocks that differ
    /// between instances). `.distantPast` keeps them all.
    public init(catalog: Catalog, now: Date) {
        self.catalog = catalog
        foreseenFromHour = now == .distantPast ? Int.min : AnalyticsCounters.hour(of: now) - Self.foreseenMarginHours
    }

    /// How long before the instant of computing foreseen changes are still kept by the hour.
    public static let foreseenMarginHours = 24

    /// The contribution of every subscription of `records` (one-time purchases contribute nothing).
    public func counters(of records: RecordSet) -> AnalyticsCounters {
        var counters = AnalyticsCounters()
        for ledger in records.ledgers { add(ledger, to: &counters) }
        return counters
    }

    /// The contribution of one ledger (nothing when it is not an auto-renewable subscription).
    public func counters(of ledger: SubscriptionLedger?) -> AnalyticsCounters {
        var counters = AnalyticsCounters()
        if let ledger { add(ledger, to: &counters) }
        return counters
    }

    /// Adds one ledger's contribution to `counters`, times `sign` (−1 takes it away).
    public func add(_ ledger: SubscriptionLedger, to counters: inout AnalyticsCounters, times sign: Int64 = 1) {
        add(ledger, to: &counters, times: sign, countingFrom: 0, cohort: true)
    }

    /// Adds what changed between a subscription's old and new ledgers: the new contribution minus
    /// the old, which is what an apply writes.
    ///
    /// A period's counters depend only on its transaction, its neighbours, the first paid period
    /// and (for the last) the renewal info; so the periods of a shared history whose next period
    /// is shared too count the same in both and cancel, and are not counted at all: a renewal
    /// adds the counters of a few periods, not of both histories in full. The cohort's retention
    /// cancels too once its twelfth month falls before every period that is not shared: its
    /// checkpoints then lie in the shared periods' spans, the same in both.
    ///
    /// The caller says how many leading records both histories share: an apply knows it by their
    /// ids (only its evidence brings new versions), where comparing the records would copy both
    /// into `==` at each step. Any number up to the length of the common prefix gives the same
    /// change; a smaller one only counts more periods in both.
    public func addChange(from old: SubscriptionLedger?, to new: SubscriptionLedger?, sharing shared: Int, to counters: inout AnalyticsCounters) {
        var unchanged = 0
        var cohortUnchanged = false
        if let old, let new, isCounted(old.transactions), isCounted(new.transactions) {
            let (before, after) = (old.transactions, new.transactions)
            let firstPaid = Self.firstPaid(after)
            let firstPaidPeriod = Self.firstPaidPeriod(after)
            if firstPaid == Self.firstPaid(before), firstPaid.map({ $0 < shared }) ?? true,
                firstPaidPeriod == Self.firstPaidPeriod(before), firstPaidPeriod.map({ $0 < shared }) ?? true
            {
                unchanged = max(0, shared - 1)
                if let firstPaid, unchanged > 0 {
                    let lastCheckpoint = UTCCalendar.adding(months: 12, to: after[firstPaid].purchaseDate)
                    cohortUnchanged = (unchanged..<before.count).allSatisfy { lastCheckpoint < before[$0].purchaseDate }
                        && (unchanged..<after.count).allSatisfy { lastCheckpoint < after[$0].purchaseDate }
                }
            }
        }
        if let new { add(new, to: &counters, times: 1, countingFrom: unchanged, cohort: !cohortUnchanged) }
        if let old { add(old, to: &counters, times: -1, countingFrom: unchanged, cohort: !cohortUnchanged) }
    }

    /// Whether a history contributes at all: an auto-renewable subscription's.
    private func isCounted(_ history: [Transaction]) -> Bool {
        guard let last = history.indices.last else { return false }
        return catalog.productType(
            productID: history[last].productID, stated: history[last].productType, inGroup: history[last].subscriptionGroupID != nil) == .autoRenewable
    }

    /// How long Apple retries a failed renewal in production before giving up: up to 60 days
    /// (`DID_FAIL_TO_RENEW`, App Store Server Notifications; ../shared/reference/appstore.md).
    static let billingRetryWindow: TimeInterval = 60 * 86_400

    /// The Billing Grace Period of the history's app in production, from the catalog: Apple
    /// shortens it in the sandbox, and says a grace period's end only while it lasts.
    private func gracePeriod(of history: [Transaction]) -> TimeInterval? {
        guard history[0].environment == .production else { return nil }
        let app = catalog.apps.count == 1 ? catalog.apps.first : catalog.apps.first { $0.bundleID == history[0].bundleID }
        return app?.billingGracePeriodDays.map { TimeInterval($0) * 86_400 }
    }

    /// The first period the customer paid for (not a trial, not family shared): where the cohort
    /// starts and Apple's second year of commission is counted from.
    private static func firstPaid(_ history: [Transaction]) -> Int? {
        history.indices.first { !isTrial(history, at: $0) && history[$0].ownership != .familyShared }
    }

    /// The first paid period, family shared or not: the new paid subscription (a family member's
    /// shared subscription is one, active and renewing like any, though its charge is the organizer's).
    private static func firstPaidPeriod(_ history: [Transaction]) -> Int? {
        history.indices.first { !isTrial(history, at: $0) }
    }

    /// A ledger's contribution times `sign`, leaving out the periods before `first` (they still
    /// count in the cohort's retention, which looks at every paid period) and, unless `cohort`,
    /// the cohort's counters.
    private func add(_ ledger: SubscriptionLedger, to counters: inout AnalyticsCounters, times sign: Int64, countingFrom first: Int, cohort: Bool) {
        let history = ledger.transactions
        guard isCounted(history) else { return }
        var writer = Writer(environment: history[0].environment, sign: sign, foreseenFromHour: foreseenFromHour)
        // The writer adds straight into the caller's counters (no copy, no second merge).
        swap(&writer.counters, &counters)
        defer {
            writer.addPendingEnds()
            swap(&writer.counters, &counters)
        }
        let firstPaid = Self.firstPaid(history)
        let firstPaidPeriod = Self.firstPaidPeriod(history)
        // Apple's commission falls to 15 % once a subscription has a year of paid service.
        let secondYear = firstPaid.map { UTCCalendar.adding(months: 12, to: history[$0].purchaseDate) }
        var paidSpans: [(start: Date, end: Date)] = []
        if cohort { paidSpans.reserveCapacity(history.count) }
        // How many of them belong to the periods before `first`.
        var sharedSpans = 0
        // What the records foresee beyond the latest signed evidence (the last period's end, a
        // churn, a trial's end) may not have happened yet: the writer keeps it by the hour too.
        let last = history.count - 1
        let horizon = max(history[last].purchaseDate, history[last].provenance.versionDate, ledger.renewalInfo?.provenance.versionDate ?? .distantPast)
        let countFrom = min(first, history.count)
        let loopStart = cohort ? 0 : countFrom
        // Each counted period's MRR span, with its neighbours', for the MRR movement.
        var previousMRR = countFrom > 0 && countFrom < history.count ? mrrSpan(of: history, at: countFrom - 1) : nil
        var currentMRR = countFrom < history.count ? mrrSpan(of: history, at: countFrom) : nil
        // The previous paid period's number in its run, while the loop walks one.
        var previousRun: (index: Int, number: Int)?

        // Records are passed on as the history and an index, their fields read in place
        // (`history[index].…`), as `TransactionStep` reads them: a record passed by value is a copy
        // of a few hundred bytes and a dozen references, which was a quarter of the cost. The
        // periods before `first` only give the cohort its paid spans, so without the cohort the
        // loop starts at `first`.
        for index in loopStart..<history.count {
            let hasNext = index + 1 < history.count
            let nextStart = hasNext ? history[index + 1].purchaseDate : nil
            let isTrial = Self.isTrial(history, at: index)
            let start = history[index].purchaseDate
            let paidEnd = max(start, history[index].expiresDate ?? start)
            let revocation = history[index].revocation
            var end = paidEnd
            if let revoked = revocation?.date, revoked < end { end = max(start, revoked) }
            if let nextStart, nextStart < end { end = max(start, nextStart) }
            guard index >= first else {
                if !isTrial { paidSpans.append((start, end)) }
                sharedSpans = paidSpans.count
                continue
            }
            let nextMRR = hasNext ? mrrSpan(of: history, at: index + 1) : nil
            defer {
                previousMRR = currentMRR
                currentMRR = nextMRR
            }
            let nextStep = hasNext ? TransactionStep(history, at: index + 1) : nil
            let step = index > 0 ? TransactionStep(history, at: index) : nil
            writer.use(history, at: index)
            if index == last { writer.horizon = horizon }

            if isTrial {
                writer.span(.trialChange, from: start, to: end)
                writer.count(.newTrial, on: start)
                writer.count(.trialEnded, on: end)
                // Converted: the next, paid, transaction follows on and was not refunded.
                if hasNext, !Self.isTrial(history, at: index + 1), revocation == nil, history[index + 1].revocation == nil,
                    nextStep == .renewal || nextStep == .billingRecovery || nextStep == .planChange
                {
                    writer.count(.trialConverted, on: end)
                }
            } else {
                writer.span(.activeChange, from: start, to: end)
                if cohort { paidSpans.append((start, end)) }
                if history[index].ownership != .familyShared {
                    let rate: Int64 = secondYear.map { start >= $0 } == true ? 15 : 30
                    addCharge(of: history, at: index, commission: rate, mrr: currentMRR, from: start, to: end, with: &writer)
                }
                if let currentMRR {
                    addMovement(of: currentMRR, after: previousMRR, before: nextMRR, isFirstPaid: index == firstPaidPeriod, with: &writer)
                }
                if history[index].ownership != .familyShared { countCharge(history, at: index, with: &writer) }
                let run: Int
                if let previousRun, previousRun.index == index - 1, step == .renewal || step == .billingRecovery || step == .planChange {
                    run = min(previousRun.number + 1, AnalyticsMetric.renewalPeriods)
                } else {
                    run = previousRun == nil ? index - Self.runStart(history, endingAt: index, atMost: AnalyticsMetric.renewalPeriods) + 1 : 1
                }
                previousRun = (index, run)
                countRenewalDue(history, at: index, number: run, revokedInPeriod: revocation.map { $0.date < paidEnd } ?? false, next: nextStep, with: &writer)
                if index == firstPaidPeriod {
                    writer.count(.newPaid, on: start)
                } else if let step {
                    switch step {
                    case .renewal, .billingRecovery: writer.count(.renewal, on: start)
                    case .resubscription, .afterGap: writer.count(.reactivation, on: start)
                    case .first, .planChange: break
                    }
                }
            }
            countCustomerEntering(history, at: index, with: &writer)
            if step == .billingRecovery {
                writer.count(.billingRetryRecovery, on: start)
            }

            // How the period ended: renewed, recovered after billing retry, still in retry, or expired.
            let revokedInPeriod = revocation.map { revocation in
                revocation.date < paidEnd && (nextStart.map { revocation.date < $0 } ?? true)
            } ?? false
            // Where the run of paid periods this one ends began; looked up only when it churns.
            func runStart() -> Date? { isTrial ? nil : history[Self.runStart(history, endingAt: index)].purchaseDate }
            if let nextStart {
                if revokedInPeriod, let runStart = runStart() {
                    writer.churn(.churnOther, on: end, runStarted: runStart)
                } else if nextStart > paidEnd {
                    if nextStep == .billingRecovery {
                        writer.count(.billingIssue, on: paidEnd)
                        writer.pastBillingTrouble(from: paidEnd, to: nextStart, grace: gracePeriod(of: history))
                        if let atRisk = nextMRR ?? currentMRR {
                            writer.moneySpan(.mrrAtRiskChange, atRisk.monthly, atRisk.currency, from: paidEnd, to: nextStart)
                        }
                    } else if let runStart = runStart() {
                        writer.churn(.churnOther, on: paidEnd, runStarted: runStart)
                    }
                }
            } else if revokedInPeriod {
                if let runStart = runStart() { writer.churn(.churnOther, on: end, runStarted: runStart) }
            } else {
                addEnding(
                    purchasedAt: start, at: paidEnd, committedUntil: history[index].commitmentContinuesUntil, info: ledger.renewalInfo,
                    runStarted: runStart(), atRisk: currentMRR, grace: gracePeriod(of: history), with: &writer)
            }
        }

        if cohort, let firstPaid {
            writer.horizon = nil
            writer.use(history, at: firstPaid)
            let firstStart = history[firstPaid].purchaseDate
            let cohort = AnalyticsCounters.start(ofDay: UTCCalendar.monthStart(of: AnalyticsCounters.day(of: firstStart)))
            // Past `first` (a change's two histories, sharing their first paid period and the
            // periods before `first`), the cohort's size and every checkpoint a shared period
            // covers count the same in both, and cancel: left out.
            if first == 0 { writer.count(.cohortSize, on: cohort) }
            // The ends of the cohort's twelve months, each a retention checkpoint.
            let monthEnds = (1...12).map { UTCCalendar.adding(months: $0, to: firstStart) }
            for (month, checkpoint) in monthEnds.enumerated() {
                let covering = paidSpans.firstIndex { $0.start <= checkpoint && checkpoint < $0.end }
                if let covering, covering >= sharedSpans { writer.count(.cohortRetained(after: month + 1), on: cohort) }
            }
            addCohortRevenue(history, from: max(firstPaid, first), monthEnds: monthEnds, on: cohort, with: &writer)
        }
    }

    /// Realized LTV: each charge of the cohort's first twelve months from `history[first]` on,
    /// less its refund, by the month after the first paid start it fell in (`monthEnds`). A
    /// charge's share depends on its own record alone, so the charges of a shared history's
    /// unchanged periods cancel in a change and are left out (`first`).
    private func addCohortRevenue(_ history: [Transaction], from first: Int, monthEnds: [Date], on cohort: Date, with writer: inout Writer) {
        var month = 0
        for index in first..<history.count where !Self.isTrial(history, at: index) && history[index].ownership != .familyShared {
            let start = history[index].purchaseDate
            while month < 12, start >= monthEnds[month] { month += 1 }
            guard month < 12 else { return }
            guard let price = history[index].price ?? catalog.prices.price(productID: history[index].productID, storefront: history[index].storefront)
            else { continue }
            writer.money(.cohortRevenue(month: month), price.milliUnits - Self.refunded(price.milliUnits, by: history[index].revocation), price.currency, on: cohort)
        }
    }

    /// What a revocation paid back of `milliUnits`: all of it, a prorated refund's share, or
    /// nothing (a family member losing access is no refund). The experiments' revenue reads it too.
    static func refunded(_ milliUnits: Int64, by revocation: Revocation?) -> Int64 {
        guard let revocation, revocation.type != .familyRevoke else { return 0 }
        if revocation.type == .refundProrated, let percentage = revocation.percentage { return milliUnits * Int64(percentage) / 100_000 }
        return milliUnits
    }

    /// Counts a charge, and marks one that follows another charge of its subscription in the same
    /// day, week or month (rare, so the paying customers cost one counter a charge, not three).
    private func countCharge(_ history: [Transaction], at index: Int, with writer: inout Writer) {
        let start = history[index].purchaseDate
        writer.count(.charge, on: start)
        var previous = index - 1
        while previous >= 0, Self.isTrial(history, at: previous) || history[previous].ownership == .familyShared { previous -= 1 }
        guard previous >= 0 else { return }
        let (day, before) = (AnalyticsCounters.day(of: start), AnalyticsCounters.day(of: history[previous].purchaseDate))
        if before == day { writer.count(.repeatChargeInDay, on: start) }
        if UTCCalendar.weekStart(of: before) == UTCCalendar.weekStart(of: day) { writer.count(.repeatChargeInWeek, on: start) }
        if UTCCalendar.monthStart(of: before) == UTCCalendar.monthStart(of: day) { writer.count(.repeatChargeInMonth, on: start) }
    }

    /// Marks a period that starts after time without a trial or paid period, when the
    /// subscription had not been active earlier in that day, week or month.
    private func countCustomerEntering(_ history: [Transaction], at index: Int, with writer: inout Writer) {
        let start = history[index].purchaseDate
        var previousEnd: Date?
        if index > 0 {
            var end = max(history[index - 1].purchaseDate, history[index - 1].expiresDate ?? history[index - 1].purchaseDate)
            if let revoked = history[index - 1].revocation?.date, revoked < end { end = max(history[index - 1].purchaseDate, revoked) }
            guard end < start else { return }
            previousEnd = end
        }
        let day = AnalyticsCounters.day(of: start)
        // Active at or after a period's first instant: already a customer of that period.
        func wasActive(since periodStart: Int) -> Bool { previousEnd.map { $0 > AnalyticsCounters.start(ofDay: periodStart) } ?? false }
        if !wasActive(since: day) { writer.count(.customerEnteredDay, on: start) }
        if !wasActive(since: UTCCalendar.weekStart(of: day)) { writer.count(.customerEnteredWeek, on: start) }
        if !wasActive(since: UTCCalendar.monthStart(of: day)) { writer.count(.customerEnteredMonth, on: start) }
    }

    /// Counts the renewal due at a paid period's end (none when it was refunded or replaced by a
    /// plan change before its end), by the period's `number` in its run, and whether it lapsed
    /// (the `next` step is no renewal or recovery). Whether a plan change replaced it is read from
    /// the next period's start, not from `isUpgraded`, which only some versions of the record carry.
    private func countRenewalDue(
        _ history: [Transaction], at index: Int, number: Int, revokedInPeriod: Bool, next: TransactionStep?, with writer: inout Writer
    ) {
        guard !revokedInPeriod, let due = history[index].expiresDate else { return }
        if index + 1 < history.count, history[index + 1].purchaseDate < due { return }
        writer.count(.renewalDue(period: number), on: due)
        if next != .renewal && next != .billingRecovery { writer.count(.renewalLapsed(period: number), on: due) }
    }

    /// Revenue, refund and MRR of one paid transaction, `history[index]`.
    private func addCharge(
        of history: [Transaction], at index: Int, commission: Int64, mrr: MRRSpan?, from start: Date, to end: Date, with writer: inout Writer
    ) {
        guard let price = history[index].price ?? catalog.prices.price(productID: history[index].productID, storefront: history[index].storefront)
        else {
            writer.count(.chargePriceUnknown, on: start)
            writer.span(.mrrPriceUnknownChange, from: start, to: end)
            if let revocation = history[index].revocation, revocation.type != .familyRevoke {
                writer.count(.refund, on: revocation.date)
                writer.count(.refundPriceUnknown, on: revocation.date)
            }
            return
        }
        writer.money(.revenueGross, price.milliUnits, price.currency, on: start)
        writer.money(.revenueProceeds, Self.proceeds(price.milliUnits, commission: commission), price.currency, on: start)
        writer.money(.revenueProceedsSmallBusiness, Self.proceeds(price.milliUnits, commission: 15), price.currency, on: start)
        if let revocation = history[index].revocation, revocation.type != .familyRevoke {
            let refunded = Self.refunded(price.milliUnits, by: revocation)
            writer.count(.refund, on: revocation.date)
            writer.money(.refundGross, refunded, price.currency, on: revocation.date)
            writer.money(.refundProceeds, Self.proceeds(refunded, commission: commission), price.currency, on: revocation.date)
            writer.money(.refundProceedsSmallBusiness, Self.proceeds(refunded, commission: 15), price.currency, on: revocation.date)
        }
        guard let monthly = mrr?.monthly else {
            if monthlyPrice(price.milliUnits, of: history, at: index) == nil { writer.span(.mrrPriceUnknownChange, from: start, to: end) }
            return
        }
        writer.moneySpan(.mrrGrossChange, monthly, price.currency, from: start, to: end)
        writer.moneySpan(.mrrProceedsChange, Self.proceeds(monthly, commission: commission), price.currency, from: start, to: end)
        writer.moneySpan(.mrrProceedsSmallBusinessChange, Self.proceeds(monthly, commission: 15), price.currency, from: start, to: end)
    }

    /// The end of the latest period when nothing follows it: billing retry (with its grace
    /// period) while Apple still tries, else an expiry with its reason (trials do not churn). A
    /// period of a commitment that ends before the commitment churns at the commitment's end: the
    /// customer owes the months until then, auto-renew on or off (unless Apple gave up charging one).
    ///
    /// A trial (`runStarted` nil) does not churn: it ends, cancelled when auto-renew was off. The
    /// time auto-renew is off before the end is counted from the renewal info that says so;
    /// `atRisk` is the period's MRR, what a failed renewal puts at risk.
    private func addEnding(
        purchasedAt purchaseDate: Date, at periodEnd: Date, committedUntil: Date?, info: RenewalInfo?, runStarted: Date?, atRisk: MRRSpan?,
        grace: TimeInterval?, with writer: inout Writer
    ) {
        let current = info.flatMap { $0.provenance.versionDate >= purchaseDate ? $0 : nil }
        let end = current?.expirationReason == .billingError ? periodEnd : committedUntil ?? periodEnd
        if let current, current.isInBillingRetry {
            let graceEnd = max(periodEnd, current.gracePeriodExpiresDate ?? periodEnd)
            writer.count(.billingIssue, on: periodEnd)
            writer.span(.graceChange, from: periodEnd, to: graceEnd)
            writer.count(.retryChange, on: graceEnd)
            if let atRisk { writer.money(.mrrAtRiskChange, atRisk.monthly, atRisk.currency, on: periodEnd) }
            return
        }
        if let current, current.expirationReason == .billingError, current.provenance.versionDate > periodEnd {
            // Apple retries for up to 60 days: a renewal info signed later (Apple's answer to an
            // import or a late reconciliation) does not say the retry lasted until it was signed.
            let retryEnd = min(current.provenance.versionDate, periodEnd.addingTimeInterval(Self.billingRetryWindow))
            writer.count(.billingIssue, on: periodEnd)
            writer.pastBillingTrouble(from: periodEnd, to: retryEnd, grace: grace)
            if let atRisk { writer.moneySpan(.mrrAtRiskChange, atRisk.monthly, atRisk.currency, from: periodEnd, to: retryEnd) }
        }
        let autoRenewOff = current?.autoRenewPreference == false
        if autoRenewOff, let current {
            let turnedOff = max(purchaseDate, current.provenance.versionDate)
            writer.span(runStarted == nil ? .trialAutoRenewOffChange : .autoRenewOffChange, from: turnedOff, to: periodEnd)
        }
        guard let runStarted else {
            if autoRenewOff || current?.expirationReason == .voluntary { writer.count(.trialCancellation, on: periodEnd) }
            return
        }
        switch current?.expirationReason {
        case .voluntary?: writer.churn(.churnVoluntary, on: end, runStarted: runStarted)
        case .billingError?: writer.churn(.churnInvoluntary, on: end, runStarted: runStarted)
        case nil where autoRenewOff: writer.churn(.churnVoluntary, on: end, runStarted: runStarted)
        default: writer.churn(.churnOther, on: end, runStarted: runStarted)
        }
    }

    /// One paid period's share of MRR: from the day it starts to the day it ends (the same day, for
    /// a period shorter than a day), a month's worth of its price in its currency, under its
    /// product and storefront.
    struct MRRSpan {
        var startDay: Int
        var endDay: Int
        var start: Date
        var end: Date
        var monthly: Int64
        var currency: String
        var productID: String
        var storefront: String?

        /// Not by offer type: an introductory price ending is an expansion within its product,
        /// which is why a report filtered or split by offer type gives no movement.
        func isInSegment(of other: MRRSpan) -> Bool {
            productID == other.productID && storefront == other.storefront && currency == other.currency
        }
    }

    /// The MRR span of `history[index]`; nil for a trial, a family shared period, an unknown price
    /// or length, or a period that ends as it starts.
    private func mrrSpan(of history: [Transaction], at index: Int) -> MRRSpan? {
        guard !Self.isTrial(history, at: index), history[index].ownership != .familyShared,
            let price = history[index].price ?? catalog.prices.price(productID: history[index].productID, storefront: history[index].storefront),
            let monthly = monthlyPrice(price.milliUnits, of: history, at: index)
        else { return nil }
        let start = history[index].purchaseDate
        var end = max(start, history[index].expiresDate ?? start)
        if let revoked = history[index].revocation?.date, revoked < end { end = max(start, revoked) }
        if index + 1 < history.count, history[index + 1].purchaseDate < end { end = max(start, history[index + 1].purchaseDate) }
        guard start < end else { return nil }
        return MRRSpan(
            startDay: AnalyticsCounters.day(of: start), endDay: AnalyticsCounters.day(of: end), start: start, end: end, monthly: monthly, currency: price.currency,
            productID: history[index].productID, storefront: history[index].storefront)
    }

    /// The MRR movement of one span, paired with its neighbours: where the previous span ends the
    /// day this one starts in the same segment, the difference is an expansion or a contraction;
    /// else this start is new (the subscription's first paid period) or a reactivation. Where the
    /// next span starts the day this one ends, nothing here (the next span's start says it, or,
    /// in another segment, this end is a contraction); else this end is churned MRR. So each
    /// segment's movement sums to its change of MRR, day by day.
    private func addMovement(of span: MRRSpan, after previous: MRRSpan?, before next: MRRSpan?, isFirstPaid: Bool, with writer: inout Writer) {
        if let previous, previous.endDay == span.startDay {
            if previous.isInSegment(of: span) {
                let difference = span.monthly - previous.monthly
                if difference > 0 { writer.money(.mrrExpansion, difference, span.currency, on: span.start) }
                if difference < 0 { writer.money(.mrrContraction, -difference, span.currency, on: span.start) }
            } else {
                writer.money(.mrrExpansion, span.monthly, span.currency, on: span.start)
            }
        } else {
            writer.money(isFirstPaid ? .mrrNew : .mrrReactivation, span.monthly, span.currency, on: span.start)
        }
        if let next, next.startDay == span.endDay {
            if !next.isInSegment(of: span) { writer.money(.mrrContraction, span.monthly, span.currency, on: span.end) }
        } else {
            writer.money(.mrrChurned, span.monthly, span.currency, on: span.end)
        }
    }

    /// Where the run of paid periods that `history[index]` ends began, looking back over at most
    /// `limit` periods: renewals, recoveries and plan changes continue a run, a trial before it
    /// or a gap (a resubscription) starts one. An experiment's conversions are runs begun after
    /// the exposure.
    static func runStart(_ history: [Transaction], endingAt index: Int, atMost limit: Int = .max) -> Int {
        var first = index
        while index - first + 1 < limit, first > 0, !isTrial(history, at: first - 1) {
            let step = TransactionStep(history, at: first)
            guard step == .renewal || step == .billingRecovery || step == .planChange else { break }
            first -= 1
        }
        return first
    }

    /// A period's price as a month's worth: a year / 12, a week × 52 / 12 (a day-based period of
    /// n days × 364 / 12n), rounded down to a milli-unit; nil when the period's length is unknown.
    /// A monthly charge of a commitment pays one month of the product's year: it is its own month's worth.
    private func monthlyPrice(_ milliUnits: Int64, of history: [Transaction], at index: Int) -> Int64? {
        if history[index].billingPlan == .monthly { return milliUnits }
        var duration = catalog.product(id: history[index].productID)?.duration
        if PeriodType(offer: history[index].offer) == .introductoryPayUpFront, let period = history[index].offer?.period {
            duration = SubscriptionDuration(iso8601: period) ?? duration
        }
        guard let duration else { return nil }
        if duration.months > 0 { return milliUnits / Int64(duration.months) }
        return milliUnits * 364 / (12 * Int64(duration.days))
    }

    /// What Apple pays out of `milliUnits` after its commission in percent, rounded down.
    static func proceeds(_ milliUnits: Int64, commission: Int64) -> Int64 {
        milliUnits * (100 - commission) / 100
    }

    static func isTrial(_ history: [Transaction], at index: Int) -> Bool {
        PeriodType(offer: history[index].offer) == .freeTrial
    }

    /// Writes counters under the current transaction's product, storefront and offer type, times `sign`.
    private struct Writer {
        let environment: AppStoreEnvironment
        let sign: Int64
        let foreseenFromHour: Int
        private var productID = ""
        private var storefront = ""
        private var offerType = ""
        var counters = AnalyticsCounters()
        /// The latest instant the subscription's signed evidence vouches for, while writing its
        /// last period: a change after it is foreseen, and also kept by the hour as scheduled.
        var horizon: Date?
        /// The current product's, storefront's and offer type's interned segments, by currency (""
        /// for counts): interned once per subscription (unless one of them changes), not once per
        /// counter.
        private var segments: [(currency: String, id: AnalyticsCounters.SegmentID)] = []
        /// The ends of spans not added yet. A renewal starts on the day its period ends, so the
        /// end of each active and MRR span and the start of the next cancel: matched here, the
        /// pair never reaches `counters`, in a rebuild a table far larger than the caches
        /// (about two in five additions of a subscription with a few renewals).
        private var pendingEnds: [(segment: AnalyticsCounters.SegmentID, metric: AnalyticsMetric, day: Int, amount: Int64)] = []

        init(environment: AppStoreEnvironment, sign: Int64, foreseenFromHour: Int) {
            self.environment = environment
            self.sign = sign
            self.foreseenFromHour = foreseenFromHour
            // Allocated once, not grown one append at a time.
            segments.reserveCapacity(4)
            pendingEnds.reserveCapacity(16)
        }

        /// Writes what follows under the product, storefront and offer type of `history[index]`.
        mutating func use(_ history: [Transaction], at index: Int) {
            let storefront = history[index].storefront ?? ""
            let offerType = history[index].offer?.type.rawValue ?? ""
            guard history[index].productID != productID || storefront != self.storefront || offerType != self.offerType else { return }
            productID = history[index].productID
            self.storefront = storefront
            self.offerType = offerType
            segments = []
        }

        mutating func count(_ metric: AnalyticsMetric, on date: Date) {
            money(metric, 1, "", on: date)
        }

        mutating func money(_ metric: AnalyticsMetric, _ milliUnits: Int64, _ currency: String, on date: Date) {
            let segment = segment(currency)
            counters.add(milliUnits * sign, segment: segment, metric: metric, day: AnalyticsCounters.day(of: date))
            schedule(milliUnits, segment, metric, at: date)
        }

        /// A failed renewal's time without service that has ended: its first `grace` (the app's
        /// Billing Grace Period, when it has one) in grace, the rest in billing retry.
        mutating func pastBillingTrouble(from start: Date, to end: Date, grace: TimeInterval?) {
            let graceEnd = min(end, start.addingTimeInterval(grace ?? 0))
            span(.graceChange, from: start, to: graceEnd)
            span(.retryChange, from: graceEnd, to: end)
        }

        /// A churn, and whether the run of paid periods it ends began in the same day, week or month.
        mutating func churn(_ metric: AnalyticsMetric, on date: Date, runStarted: Date) {
            count(metric, on: date)
            let (day, started) = (AnalyticsCounters.day(of: date), AnalyticsCounters.day(of: runStarted))
            if day == started { count(.churnStartedSameDay, on: date) }
            if UTCCalendar.weekStart(of: day) == UTCCalendar.weekStart(of: started) { count(.churnStartedSameWeek, on: date) }
            if UTCCalendar.monthStart(of: day) == UTCCalendar.monthStart(of: started) { count(.churnStartedSameMonth, on: date) }
        }

        /// Keeps a change after the horizon by its hour too, unless the hour is too long past to be read.
        private mutating func schedule(_ amount: Int64, _ segment: AnalyticsCounters.SegmentID, _ metric: AnalyticsMetric, at date: Date) {
            guard let horizon, date > horizon else { return }
            let hour = AnalyticsCounters.hour(of: date)
            guard hour >= foreseenFromHour else { return }
            counters.add(amount * sign, segment: segment, metric: .scheduled(metric), day: hour)
        }

        /// +1 the day a point-in-time figure starts counting, −1 the day it stops.
        mutating func span(_ metric: AnalyticsMetric, from start: Date, to end: Date) {
            moneySpan(metric, 1, "", from: start, to: end)
        }

        mutating func moneySpan(_ metric: AnalyticsMetric, _ amount: Int64, _ currency: String, from start: Date, to end: Date) {
            let first = AnalyticsCounters.day(of: start)
            let last = AnalyticsCounters.day(of: end)
            guard start < end else { return }
            let segment = segment(currency)
            // A span within one day changes no day's counter, yet it is live until its end: the
            // sandbox's five-minute months, a period refunded the day it began.
            schedule(amount, segment, metric, at: start)
            schedule(-amount, segment, metric, at: end)
            guard first < last else { return }
            if let ended = pendingEnds.firstIndex(where: { $0.segment == segment && $0.metric == metric && $0.day == first }) {
                pendingEnds[ended].amount += amount * sign
                if pendingEnds[ended].amount == 0 { pendingEnds.remove(at: ended) }
            } else {
                counters.add(amount * sign, segment: segment, metric: metric, day: first)
            }
            pendingEnds.append((segment, metric, last, -amount * sign))
        }

        /// Adds the ends no later span started at; before the counters go back to the caller.
        mutating func addPendingEnds() {
            for end in pendingEnds { counters.add(end.amount, segment: end.segment, metric: end.metric, day: end.day) }
            pendingEnds = []
        }

        private mutating func segment(_ currency: String) -> AnalyticsCounters.SegmentID {
            if let known = segments.first(where: { $0.currency == currency }) { return known.id }
            let segment = counters.intern(
                AnalyticsCounters.Segment(environment: environment, productID: productID, storefront: storefront, offerType: offerType, currency: currency))
            segments.append((currency, segment))
            return segment
        }
    }
}

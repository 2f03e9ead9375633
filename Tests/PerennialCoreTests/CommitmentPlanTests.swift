import Foundation
import PerennialCore
import Testing

/// A monthly plan with a 12-month commitment, as Apple documents it
/// (https://developer.apple.com/documentation/storekit/supporting-monthly-subscriptions-with-a-12-month-commitment):
/// a one-year product charged every month, each charge its own transaction with `billingPlanType`
/// `MONTHLY` and its `commitmentInfo`; auto-renew off stops it at the commitment's end, not at
/// the end of the month. State, events and analytics, with figures derived by hand.
@Suite("Monthly plan with a 12-month commitment")
struct CommitmentPlanTests {
    private let engine = Fixture.engine

    /// The commitment starts on 2026-01-15; month n runs from n − 1 to n months later.
    static let start = AnalyticsCounters.start(ofDay: UTCCalendar.day(year: 2026, month: 1, day: 15))
    static let commitmentEnd = UTCCalendar.adding(months: 12, to: start)

    static func monthStart(_ number: Int) -> Date { UTCCalendar.adding(months: number - 1, to: start) }

    /// The charge of month `number` (1…12): 9.99 USD, the commitment costing 119.88 USD.
    static func month(_ number: Int) -> Transaction {
        Transaction(
            transactionID: "\(1000 + number)", originalTransactionID: "1001", webOrderLineItemID: "w\(number)", bundleID: Fixture.bundleID,
            productID: "premium.yearly", productType: .autoRenewable, subscriptionGroupID: Fixture.groupID,
            purchaseDate: monthStart(number), originalPurchaseDate: start, expiresDate: monthStart(number + 1),
            reason: number == 1 ? .purchase : .renewal, price: Money(milliUnits: 9_990, currency: "USD"), storefront: "USA",
            billingPlan: .monthly,
            commitment: CommitmentPeriod(
                billingPeriodNumber: number, totalBillingPeriods: 12, expiresDate: commitmentEnd, price: Money(milliUnits: 119_880, currency: "USD")),
            environment: .production,
            provenance: Provenance(source: .notificationV2, versionDate: monthStart(number).addingTimeInterval(1), isSigned: true))
    }

    /// Renewal info signed at `signed`: `autoRenewStatus` speaks of the next monthly charge, the
    /// commitment's own status of the customer's switch.
    static func info(monthly: Bool, commitment: Bool, expired: ExpirationReason? = nil, signed: Date) -> RenewalInfo {
        RenewalInfo(
            originalTransactionID: "1001", productID: "premium.yearly", autoRenewProductID: "premium.yearly", willAutoRenew: monthly,
            expirationReason: expired, renewalPrice: Money(milliUnits: 9_990, currency: "USD"), billingPlan: .monthly,
            commitment: CommitmentRenewal(
                willAutoRenew: commitment, autoRenewProductID: "premium.yearly", billingPlan: .monthly, renewalDate: commitmentEnd,
                renewalPrice: Money(milliUnits: 119_880, currency: "USD")),
            environment: .production, provenance: Provenance(source: .notificationV2, versionDate: signed, isSigned: true))
    }

    private func view(months: ClosedRange<Int>, _ info: RenewalInfo?, at now: Date) -> SubscriberView {
        engine.view(of: RecordSet(EvidenceRecords(transactions: months.map(Self.month), renewalInfos: [info].compactMap { $0 })), at: now)
    }

    /// Mid-March, in month 3, after the customer turned auto-renew off on 2026-03-20.
    static let cancelledInMonth3 = monthStart(3).addingTimeInterval(5 * 86_400)

    @Test("auto-renew off mid-commitment: the monthly charges go on, the subscription ends at the commitment's end")
    func stateAcrossTheCommitment() throws {
        let running = try #require(view(months: 1...3, Self.info(monthly: true, commitment: true, signed: Self.monthStart(3)), at: Self.monthStart(3)).subscriptions.first)
        #expect(running.billingPlan == .monthly)
        #expect(running.expiresDate == Self.monthStart(4), "the transaction pays its month")
        #expect(running.commitment == CommitmentState(billingPeriodNumber: 3, totalBillingPeriods: 12, expiresDate: Self.commitmentEnd, willRenew: true))

        // Apple's renewal info after the switch: the next month is still owed, the commitment ends.
        for monthly in [true, false] {
            let cancelled = try #require(
                view(months: 1...3, Self.info(monthly: monthly, commitment: false, signed: Self.cancelledInMonth3), at: Self.cancelledInMonth3).subscriptions.first)
            #expect(cancelled.status == .active)
            #expect(cancelled.autoRenewEnabled == false, "the customer's switch is the commitment's")
            #expect(cancelled.willRenew, "month 4 is owed whatever autoRenewStatus says (\(monthly))")
            #expect(cancelled.renewalProductID == "premium.yearly")
            #expect(cancelled.commitment?.willRenew == false)
            #expect(cancelled.commitment?.expiresDate == Self.commitmentEnd)
        }

        let lastMonth = Self.monthStart(12).addingTimeInterval(86_400)
        let last = try #require(view(months: 1...12, Self.info(monthly: false, commitment: false, signed: Self.cancelledInMonth3), at: lastMonth).subscriptions.first)
        #expect(last.status == .active && !last.willRenew, "the twelfth month is the last")
        #expect(last.commitment?.billingPeriodNumber == 12)

        let after = try #require(
            view(months: 1...12, Self.info(monthly: false, commitment: false, expired: .voluntary, signed: Self.commitmentEnd), at: Self.commitmentEnd)
                .subscriptions.first)
        #expect(after.status == .expired)
        #expect(after.expiresDate == Self.commitmentEnd)
        #expect(after.expirationReason == .voluntary)
        #expect(after.commitment?.willRenew == false)
    }

    @Test("a new commitment to another product waits for the commitment's end")
    func changeAtTheCommitmentsEnd() throws {
        var info = Self.info(monthly: true, commitment: true, signed: Self.cancelledInMonth3)
        info.commitment?.autoRenewProductID = "standard.monthly"
        let before = view(months: 1...3, Self.info(monthly: true, commitment: true, signed: Self.monthStart(3)), at: Self.monthStart(3))
        let after = view(months: 1...3, info, at: Self.cancelledInMonth3)
        let state = try #require(after.subscriptions.first)
        #expect(state.renewalProductID == "premium.yearly", "month 4 is still the yearly product's")
        #expect(
            state.pendingChange
                == PlanChange(kind: .downgrade, fromProductID: "premium.yearly", toProductID: "standard.monthly", effectiveDate: Self.commitmentEnd))
        #expect(engine.events(from: before, to: after).map(\.kind) == [.productChangeScheduled])
    }

    @Test("events: a cancellation when the switch goes off, renewals every month, the expiry at the commitment's end")
    func events() throws {
        let before = view(months: 1...3, Self.info(monthly: true, commitment: true, signed: Self.monthStart(3)), at: Self.monthStart(3))
        let cancelled = view(months: 1...3, Self.info(monthly: true, commitment: false, signed: Self.cancelledInMonth3), at: Self.cancelledInMonth3)
        let cancellation = engine.events(from: before, to: cancelled)
        #expect(cancellation.map(\.kind) == [.cancellation])
        #expect(cancellation.first?.occurredAt == Self.cancelledInMonth3)

        let month4 = view(months: 1...4, Self.info(monthly: true, commitment: false, signed: Self.monthStart(4)), at: Self.monthStart(4))
        #expect(engine.events(from: cancelled, to: month4).map(\.kind) == [.renewal], "no expiry at the end of month 3")

        let month12 = view(months: 1...12, Self.info(monthly: false, commitment: false, signed: Self.monthStart(12)), at: Self.monthStart(12))
        #expect(engine.events(from: month4, to: month12).map(\.kind) == Array(repeating: .renewal, count: 8))
        let ended = view(
            months: 1...12, Self.info(monthly: false, commitment: false, expired: .voluntary, signed: Self.commitmentEnd), at: Self.commitmentEnd)
        let expiry = engine.events(from: month12, to: ended)
        #expect(expiry.map(\.kind) == [.expiration])
        #expect(expiry.first?.occurredAt == Self.commitmentEnd)
        #expect(expiry.first?.expirationReason == .voluntary)
    }

    private static func counters(months: ClosedRange<Int>, _ info: RenewalInfo?) -> AnalyticsCounters {
        SubscriptionFacts(catalog: Fixture.catalog, now: .distantPast).counters(
            of: RecordSet(EvidenceRecords(transactions: months.map(month), renewalInfos: [info].compactMap { $0 })))
    }

    /// The sum of `metric` in `currency` over the days up to `day`, or on `day` alone.
    private static func total(_ counters: AnalyticsCounters, _ metric: AnalyticsMetric, currency: String = "", upTo date: Date) -> Int64 {
        let day = AnalyticsCounters.day(of: date)
        return counters.values.filter { $0.key.metric == metric && $0.key.currency == currency && $0.key.day <= day }.reduce(0) { $0 + $1.value }
    }

    private static func count(_ counters: AnalyticsCounters, _ metric: AnalyticsMetric, on date: Date) -> Int64 {
        let day = AnalyticsCounters.day(of: date)
        return counters.values.filter { $0.key.metric == metric && $0.key.day == day }.reduce(0) { $0 + $1.value }
    }

    @Test("MRR is the monthly charge, not a twelfth of it; churn falls on the commitment's end")
    func analytics() {
        let cancelled = Self.counters(months: 1...3, Self.info(monthly: true, commitment: false, signed: Self.cancelledInMonth3))
        let midFebruary = Self.monthStart(2).addingTimeInterval(86_400)
        // 9.99 USD a month: the product lasts a year, but the charge pays one month.
        #expect(Self.total(cancelled, .mrrGrossChange, currency: "USD", upTo: midFebruary) == 9_990)
        // 9.99 × 70 % = 6.993.
        #expect(Self.total(cancelled, .mrrProceedsChange, currency: "USD", upTo: midFebruary) == 6_993)
        #expect(Self.total(cancelled, .revenueGross, currency: "USD", upTo: Self.commitmentEnd) == 3 * 9_990)
        #expect(Self.total(cancelled, .newPaid, upTo: Self.commitmentEnd) == 1)
        #expect(Self.total(cancelled, .renewal, upTo: Self.commitmentEnd) == 2)
        #expect(Self.count(cancelled, .churnVoluntary, on: Self.monthStart(4)) == 0, "month 4 is owed")
        #expect(Self.count(cancelled, .churnVoluntary, on: Self.commitmentEnd) == 1)
        #expect(Self.total(cancelled, .churnOther, upTo: Self.commitmentEnd) == 0)

        let fulfilled = Self.counters(months: 1...12, Self.info(monthly: false, commitment: false, expired: .voluntary, signed: Self.commitmentEnd))
        #expect(Self.total(fulfilled, .revenueGross, currency: "USD", upTo: Self.commitmentEnd) == 119_880)
        #expect(Self.total(fulfilled, .renewal, upTo: Self.commitmentEnd) == 11)
        #expect(Self.total(fulfilled, .mrrGrossChange, currency: "USD", upTo: Self.monthStart(12)) == 9_990)
        #expect(Self.total(fulfilled, .mrrGrossChange, currency: "USD", upTo: Self.commitmentEnd) == 0)
        #expect(Self.total(fulfilled, .activeChange, upTo: Self.monthStart(12)) == 1)
        #expect(Self.count(fulfilled, .churnVoluntary, on: Self.commitmentEnd) == 1)
        #expect(Self.total(fulfilled, .churnVoluntary, upTo: Self.commitmentEnd) == 1)
    }

    @Test("a commitment month whose charge Apple gave up on churns at the month's end")
    func billingFailureEndsTheCommitmentEarly() {
        let gaveUp = Self.counters(months: 1...3, Self.info(monthly: true, commitment: true, expired: .billingError, signed: Self.monthStart(4).addingTimeInterval(86_400)))
        #expect(Self.count(gaveUp, .churnInvoluntary, on: Self.monthStart(4)) == 1)
        #expect(Self.total(gaveUp, .churnInvoluntary, upTo: Self.commitmentEnd) == 1)
    }
}

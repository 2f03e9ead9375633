import Foundation
import PerennialCore
import Testing

/// The money rules of docs/analytics.md on single subscriptions, with figures derived by hand:
/// normalization to a month, commission, prorated refunds, catalog prices, family sharing.
@Suite("Subscription facts")
struct SubscriptionFactsTests {
    static let catalog: Catalog = {
        let json = """
            {
              "apps": [{ "bundleId": "com.example.facts" }],
              "subscriptionGroups": [{ "id": "g", "products": [
                { "id": "weekly", "level": 1, "duration": "P1W", "prices": [
                  { "storefront": "FRA", "price": "2.49", "currency": "EUR" }, { "price": "2.99", "currency": "USD" }
                ] },
                { "id": "yearly", "level": 1, "duration": "P1Y" },
                { "id": "quarterly", "level": 1, "duration": "P3M" }
              ] }]
            }
            """
        do { return try CatalogLoader.load(json: Data(json.utf8)) } catch { preconditionFailure("\(error)") }
    }()

    private static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        AnalyticsCounters.start(ofDay: UTCCalendar.day(year: year, month: month, day: day))
    }

    private static func transaction(
        _ id: String, product: String, from: Date, to: Date, price: Int64?, currency: String = "USD", storefront: String = "USA",
        reason: TransactionReason = .renewal, ownership: Ownership = .purchased, revocation: Revocation? = nil
    ) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: "o", bundleID: "com.example.facts", productID: product, purchaseDate: from,
            expiresDate: to, ownership: ownership, reason: reason, revocation: revocation,
            price: price.map { Money(milliUnits: $0, currency: currency) }, storefront: storefront, environment: .production,
            provenance: Provenance(source: price == nil ? .appReceipt : .signedTransaction, versionDate: from, isSigned: price != nil))
    }

    /// The sum of one metric's counters in `currency`.
    private static func total(_ counters: AnalyticsCounters, _ metric: AnalyticsMetric, currency: String = "", onOrBefore day: Int? = nil) -> Int64 {
        counters.values.filter { entry in
            entry.key.metric == metric && entry.key.currency == currency && (day.map { entry.key.day <= $0 } ?? true)
        }.reduce(0) { $0 + $1.value }
    }

    private static func counters(_ transactions: [Transaction], renewalInfo: RenewalInfo? = nil) -> AnalyticsCounters {
        SubscriptionFacts(catalog: catalog, now: .distantPast).counters(of: RecordSet(EvidenceRecords(transactions: transactions, renewalInfos: [renewalInfo].compactMap { $0 })))
    }

    @Test("a week is normalized × 52 / 12 and a year / 12, a quarter / 3")
    func monthlyNormalization() {
        let weekly = Self.counters([Self.transaction("w", product: "weekly", from: Self.day(2026, 1, 1), to: Self.day(2026, 1, 8), price: 2_990)])
        // 2.99 × 52 / 12 = 12.9566… → 12.956 (rounded down to a milli-unit).
        #expect(Self.total(weekly, .mrrGrossChange, currency: "USD", onOrBefore: UTCCalendar.day(year: 2026, month: 1, day: 1)) == 12_956)
        let yearly = Self.counters([Self.transaction("y", product: "yearly", from: Self.day(2026, 1, 1), to: Self.day(2027, 1, 1), price: 59_990)])
        #expect(Self.total(yearly, .mrrGrossChange, currency: "USD", onOrBefore: UTCCalendar.day(year: 2026, month: 6, day: 1)) == 4_999)
        // Proceeds of that month's worth: 4.999 × 70 % = 3.4993 → 3.499.
        #expect(Self.total(yearly, .mrrProceedsChange, currency: "USD", onOrBefore: UTCCalendar.day(year: 2026, month: 6, day: 1)) == 3_499)
        let quarterly = Self.counters([Self.transaction("q", product: "quarterly", from: Self.day(2026, 1, 1), to: Self.day(2026, 4, 1), price: 10_000)])
        #expect(Self.total(quarterly, .mrrGrossChange, currency: "USD", onOrBefore: UTCCalendar.day(year: 2026, month: 2, day: 1)) == 3_333)
        // Every period's MRR is gone once it ended.
        #expect(Self.total(quarterly, .mrrGrossChange, currency: "USD") == 0)
    }

    @Test("the commission falls to 15 % from the second year; the Small Business Program is 15 % throughout")
    func commission() {
        let first = Self.transaction("1", product: "yearly", from: Self.day(2025, 3, 1), to: Self.day(2026, 3, 1), price: 100_000, reason: .purchase)
        let second = Self.transaction("2", product: "yearly", from: Self.day(2026, 3, 1), to: Self.day(2027, 3, 1), price: 100_000)
        let counters = Self.counters([first, second])
        #expect(Self.total(counters, .revenueGross, currency: "USD") == 200_000)
        #expect(Self.total(counters, .revenueProceeds, currency: "USD") == 70_000 + 85_000)
        #expect(Self.total(counters, .revenueProceedsSmallBusiness, currency: "USD") == 170_000)
        #expect(Self.total(counters, .renewal) == 1 && Self.total(counters, .newPaid) == 1)
    }

    @Test("a prorated refund takes back its share, on the day of the refund")
    func proratedRefund() {
        let refund = Revocation(date: Self.day(2026, 1, 20), reason: .other, type: .refundProrated, percentage: 25_000)
        let counters = Self.counters([
            Self.transaction("r", product: "quarterly", from: Self.day(2026, 1, 1), to: Self.day(2026, 4, 1), price: 12_000, reason: .purchase,
                revocation: refund)
        ])
        #expect(counters.values[AnalyticsCounters.Key(
            environment: .production, metric: .refundGross, day: UTCCalendar.day(year: 2026, month: 1, day: 20), productID: "quarterly",
            storefront: "USA", currency: "USD")] == 3_000)
        #expect(Self.total(counters, .refundProceeds, currency: "USD") == 2_100)
        #expect(Self.total(counters, .churnOther) == 1)
        #expect(Self.total(counters, .activeChange) == 0)
    }

    @Test("evidence without a price takes the catalog's for its storefront, else stays unknown")
    func catalogPrices() {
        let france = Self.counters([Self.transaction("f", product: "weekly", from: Self.day(2026, 1, 1), to: Self.day(2026, 1, 8), price: nil, storefront: "FRA")])
        #expect(Self.total(france, .revenueGross, currency: "EUR") == 2_490)
        let japan = Self.counters([Self.transaction("j", product: "weekly", from: Self.day(2026, 1, 1), to: Self.day(2026, 1, 8), price: nil, storefront: "JPN")])
        #expect(Self.total(japan, .revenueGross, currency: "USD") == 2_990)
        let unknown = Self.counters([Self.transaction("u", product: "yearly", from: Self.day(2026, 1, 1), to: Self.day(2027, 1, 1), price: nil)])
        #expect(Self.total(unknown, .chargePriceUnknown) == 1)
        #expect(Self.total(unknown, .mrrPriceUnknownChange, onOrBefore: UTCCalendar.day(year: 2026, month: 5, day: 1)) == 1)
        #expect(Self.total(unknown, .activeChange, onOrBefore: UTCCalendar.day(year: 2026, month: 5, day: 1)) == 1)
        #expect(unknown.values.keys.allSatisfy { $0.currency.isEmpty })
    }

    @Test("a family-shared subscription is active but charges nothing")
    func familySharing() {
        let counters = Self.counters([
            Self.transaction("s", product: "yearly", from: Self.day(2026, 1, 1), to: Self.day(2027, 1, 1), price: 59_990, ownership: .familyShared)
        ])
        #expect(Self.total(counters, .activeChange, onOrBefore: UTCCalendar.day(year: 2026, month: 5, day: 1)) == 1)
        #expect(Self.total(counters, .revenueGross, currency: "USD") == 0)
        #expect(Self.total(counters, .cohortSize) == 0)
        // A new paid subscription like any (its renewals counted as renewals): it was not, so the
        // figures did not add up (actives grew without a new subscription).
        #expect(Self.total(counters, .newPaid) == 1)
    }

    @Test("a trial whose first payment was refunded did not convert")
    func aRefundedConversion() {
        var trial = Self.transaction("t", product: "weekly", from: Self.day(2026, 1, 1), to: Self.day(2026, 1, 8), price: 0, reason: .purchase)
        trial.offer = Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W")
        let refund = Revocation(date: Self.day(2026, 1, 10), reason: .other, type: .refundFull)
        let paid = Self.transaction("p", product: "weekly", from: Self.day(2026, 1, 8), to: Self.day(2026, 1, 15), price: 2_990)
        var refunded = paid
        refunded.revocation = refund
        #expect(Self.total(Self.counters([trial, paid]), .trialConverted) == 1)
        #expect(Self.total(Self.counters([trial, refunded]), .trialConverted) == 0)
        #expect(Self.total(Self.counters([trial, refunded]), .trialEnded) == 1)
    }

    @Test("catalog prices must be amounts with at most three decimals")
    func badPrices() {
        for price in ["9,99", "9.9999", "-1", "", "1e3", "+5"] {
            let json = """
                {"apps": [{"bundleId": "a"}], "subscriptionGroups": [{"id": "g", "products": [
                  {"id": "p", "level": 1, "duration": "P1M", "prices": [{"price": "\(price)", "currency": "USD"}]}]}]}
                """
            #expect(throws: CatalogError.self, "\(price)") { try CatalogLoader.load(json: Data(json.utf8)) }
        }
    }

    @Test("months are added the way Apple renews: the day of month clamped")
    func calendar() {
        #expect(UTCCalendar.adding(months: 1, to: Self.day(2026, 1, 31)) == Self.day(2026, 2, 28))
        #expect(UTCCalendar.adding(months: 1, to: Self.day(2028, 1, 31)) == Self.day(2028, 2, 29))
        #expect(UTCCalendar.adding(months: 12, to: Self.day(2026, 3, 15).addingTimeInterval(3_600)) == Self.day(2027, 3, 15).addingTimeInterval(3_600))
        #expect(UTCCalendar.weekStart(of: UTCCalendar.day(year: 2026, month: 1, day: 1)) == UTCCalendar.day(year: 2025, month: 12, day: 29))
        for day in stride(from: -800_000, to: 800_000, by: 997) {
            let civil = UTCCalendar.civil(day: day)
            #expect(UTCCalendar.day(year: civil.year, month: civil.month, day: civil.day) == day)
        }
    }

    @Test("an apply's change counts only the periods that differ, and equals the new contribution minus the old")
    func changeBetweenLedgersIsNewMinusOld() {
        let facts = SubscriptionFacts(catalog: Self.catalog, now: .distantPast)
        // A trial, paid quarters with a billing-retry gap, a refund, a crossgrade to yearly, then
        // a year later the commission's second year.
        var history: [Transaction] = [
            Self.transaction("t", product: "quarterly", from: Self.day(2025, 1, 1), to: Self.day(2025, 1, 8), price: 0, reason: .purchase)
        ]
        history[0].offer = Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W")
        var start = Self.day(2025, 1, 8)
        for index in 0..<6 {
            let end = UTCCalendar.adding(months: 3, to: start)
            history.append(Self.transaction("q\(index)", product: "quarterly", from: start, to: end, price: 24_990))
            start = index == 2 ? end.addingTimeInterval(9 * 86_400) : end
        }
        history.append(Self.transaction("y0", product: "yearly", from: start, to: UTCCalendar.adding(months: 12, to: start), price: 59_990, storefront: "FRA"))
        let info = RenewalInfo(
            originalTransactionID: "o", productID: "yearly", willAutoRenew: false, expirationReason: .voluntary, environment: .production,
            provenance: Provenance(source: .notificationV2, versionDate: start, isSigned: true))
        var refunded = history
        refunded[3].revocation = Revocation(date: refunded[3].purchaseDate.addingTimeInterval(86_400), reason: .other, type: .refundFull)

        func ledger(_ transactions: ArraySlice<Transaction>, info: RenewalInfo? = nil) -> SubscriptionLedger? {
            RecordSet(EvidenceRecords(transactions: Array(transactions), renewalInfos: [info].compactMap { $0 })).ledger(originalTransactionID: "o")
        }
        var candidates: [SubscriptionLedger?] = [nil]
        for count in 1...history.count {
            candidates.append(ledger(history.prefix(count)))
            candidates.append(ledger(refunded.prefix(count)))
        }
        candidates.append(ledger(history[...], info: info))
        candidates.append(ledger(history[1...]))  // the trial arrives late
        var compared = 0
        for old in candidates {
            for new in candidates {
                var expected = AnalyticsCounters()
                if let new { facts.add(new, to: &expected) }
                if let old { facts.add(old, to: &expected, times: -1) }
                // Told any number of shared records up to the common prefix, the change is the same.
                var common = 0
                if let before = old?.transactions, let after = new?.transactions {
                    while common < min(before.count, after.count), before[common] == after[common] { common += 1 }
                }
                for shared in 0...common {
                    var told = AnalyticsCounters()
                    facts.addChange(from: old, to: new, sharing: shared, to: &told)
                    #expect(told == expected, "sharing \(shared) of \(common)")
                }
                compared += 1
            }
        }
        #expect(compared == candidates.count * candidates.count)
    }

    /// A period bought on March 1 for a month, with no later evidence: its end on April 1 00:00 is
    /// foreseen, kept by its hour while that hour is at most a day before the instant of
    /// computing, and not at all once it lies further back; the daily counters are the same either way.
    @Test("a foreseen change is kept by the hour only while the hour is at most a day past")
    func foreseenChangesAreKeptByTheHourOnlyWhileRecent() {
        let records = RecordSet(
            EvidenceRecords(transactions: [
                Self.transaction("m", product: "quarterly", from: Self.day(2026, 3, 1), to: Self.day(2026, 4, 1), price: 10_000, reason: .purchase)
            ]))
        let end = AnalyticsCounters.hour(of: Self.day(2026, 4, 1))
        func scheduled(at now: Date) -> [AnalyticsCounters.Key: Int64] {
            SubscriptionFacts(catalog: Self.catalog, now: now).counters(of: records).values.filter { $0.key.metric.scheduledMetric != nil }
        }
        func daily(at now: Date) -> [AnalyticsCounters.Key: Int64] {
            SubscriptionFacts(catalog: Self.catalog, now: now).counters(of: records).values.filter { $0.key.metric.scheduledMetric == nil }
        }
        let kept = scheduled(at: .distantPast)
        // The end takes one away from the actives, by its hour.
        #expect(kept.contains { $0.key.metric == .scheduled(.activeChange) && $0.key.day == end && $0.value == -1 })
        #expect(kept.keys.allSatisfy { $0.day == end })
        // A day after the end, the hour is still kept; an hour later, it is not.
        #expect(scheduled(at: Self.day(2026, 4, 2)) == kept)
        #expect(scheduled(at: Self.day(2026, 4, 2).addingTimeInterval(3_600)).isEmpty)
        #expect(daily(at: Self.day(2027, 1, 1)) == daily(at: .distantPast))
    }
}

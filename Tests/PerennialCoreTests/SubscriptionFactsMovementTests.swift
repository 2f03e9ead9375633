import Foundation
import PerennialCore
import Testing

/// The facts of docs/analytics.md that follow a subscription through time, derived by hand: MRR
/// movement, the run of paid periods a churn ends, billing issues, cancelled trials, and what the
/// records foresee beyond their latest signed evidence (kept by the hour as scheduled).
@Suite("Subscription facts over time")
struct SubscriptionFactsMovementTests {
    static let catalog: Catalog = {
        let json = """
            {
              "apps": [{ "bundleId": "com.example.facts" }],
              "subscriptionGroups": [{ "id": "g", "products": [
                { "id": "weekly", "level": 2, "duration": "P1W" },
                { "id": "monthly", "level": 2, "duration": "P1M" },
                { "id": "quarterly", "level": 1, "duration": "P3M" },
                { "id": "yearly", "level": 1, "duration": "P1Y" }
              ] }]
            }
            """
        do { return try CatalogLoader.load(json: Data(json.utf8)) } catch { preconditionFailure("\(error)") }
    }()

    private static func at(_ month: Int, _ day: Int, _ hour: Double = 0) -> Date {
        AnalyticsCounters.start(ofDay: UTCCalendar.day(year: 2026, month: month, day: day)).addingTimeInterval(hour * 3_600)
    }

    private static func transaction(
        _ id: String, product: String = "monthly", from: Date, to: Date, price: Int64 = 10_000, reason: TransactionReason = .renewal,
        storefront: String = "USA", trial: Bool = false, isUpgraded: Bool = false, revoked: Date? = nil
    ) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: "o", bundleID: "com.example.facts", productID: product, purchaseDate: from,
            expiresDate: to, reason: reason, offer: trial ? Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W") : nil,
            isUpgraded: isUpgraded, revocation: revoked.map { Revocation(date: $0, reason: .other, type: .refundFull) },
            price: Money(milliUnits: trial ? 0 : price, currency: "USD"), storefront: storefront, environment: .production,
            provenance: Provenance(source: .signedTransaction, versionDate: revoked ?? from, isSigned: true))
    }

    private static func info(willRenew: Bool, signed: Date, reason: ExpirationReason? = nil, retry: Bool = false) -> RenewalInfo {
        RenewalInfo(
            originalTransactionID: "o", productID: "monthly", willAutoRenew: willRenew, expirationReason: reason, isInBillingRetry: retry,
            environment: .production, provenance: Provenance(source: .notificationV2, versionDate: signed, isSigned: true))
    }

    private static func counters(_ transactions: [Transaction], info: RenewalInfo? = nil) -> AnalyticsCounters {
        SubscriptionFacts(catalog: catalog, now: .distantPast).counters(of: RecordSet(EvidenceRecords(transactions: transactions, renewalInfos: [info].compactMap { $0 })))
    }

    /// One metric's counters as `day: value`, product `product` (any when nil).
    private static func days(_ counters: AnalyticsCounters, _ metric: AnalyticsMetric, product: String? = nil) -> [Int: Int64] {
        var days: [Int: Int64] = [:]
        for (key, value) in counters.values where key.metric == metric && (product.map { key.productID == $0 } ?? true) {
            days[key.day, default: 0] += value
        }
        return days
    }

    private static func day(_ month: Int, _ day: Int) -> Int { UTCCalendar.day(year: 2026, month: month, day: day) }

    /// Per product, storefront, currency and day (not offer type), the movement's net equals the
    /// day's change of MRR: over every prefix of a long history (trial, introductory price, gap,
    /// refund, price rise, crossgrades), with and without its renewal info.
    @Test("MRR movement sums to the change of MRR, day by day and segment by segment")
    func movementSumsToTheChangeOfMRR() {
        var history = [Self.transaction("t", product: "monthly", from: Self.at(1, 1, 10), to: Self.at(1, 8, 10), reason: .purchase, trial: true)]
        history.append(Self.transaction("m1", from: Self.at(1, 8, 10), to: Self.at(2, 8, 10), price: 6_000))
        history[1].offer = Offer(type: .introductory, paymentMode: .payAsYouGo, period: "P1M")
        history.append(Self.transaction("m2", from: Self.at(2, 8, 10), to: Self.at(3, 8, 10), price: 12_000))
        history.append(Self.transaction("m3", from: Self.at(3, 20, 10), to: Self.at(4, 20, 10), price: 12_000))  // after billing retry
        history.append(Self.transaction("m4", from: Self.at(4, 20, 10), to: Self.at(5, 20, 10), price: 12_000, isUpgraded: true))
        history.append(Self.transaction("y1", product: "yearly", from: Self.at(5, 2, 9), to: Self.at(12, 31), price: 99_000, reason: .purchase))
        history.append(Self.transaction("w1", product: "weekly", from: Self.at(12, 31), to: Self.at(12, 31, 30), price: 3_000, storefront: "FRA"))
        // Sandbox-like periods of six minutes, within one day.
        history.append(Self.transaction("w2", product: "weekly", from: Self.at(12, 31, 30), to: Self.at(12, 31, 30.1), price: 3_000, storefront: "FRA"))
        history.append(Self.transaction("w3", product: "weekly", from: Self.at(12, 31, 30.1), to: Self.at(12, 31, 30.2), price: 3_000, storefront: "FRA"))
        var refunded = history
        refunded[2].revocation = Revocation(date: Self.at(2, 20), reason: .other, type: .refundFull)
        var histories: [([Transaction], RenewalInfo?)] = []
        for count in 1...history.count {
            histories.append((Array(history.prefix(count)), nil))
            histories.append((Array(refunded.prefix(count)), nil))
            histories.append((Array(history.prefix(count)), Self.info(willRenew: false, signed: Self.at(12, 31, 40), reason: .voluntary)))
        }
        var checked = 0
        for (transactions, info) in histories {
            checked += Self.expectMovementSumsToMRR(Self.counters(transactions, info: info))
        }
        #expect(checked > 50)
    }

    /// Compares, per segment and day, the net movement with the MRR change counter; the number of
    /// days compared.
    private static func expectMovementSumsToMRR(_ counters: AnalyticsCounters) -> Int {
        struct Place: Hashable {
            var product: String
            var storefront: String
            var currency: String
            var day: Int
        }
        var change: [Place: Int64] = [:]
        var movement: [Place: Int64] = [:]
        let signs: [AnalyticsMetric: Int64] = [.mrrNew: 1, .mrrExpansion: 1, .mrrReactivation: 1, .mrrContraction: -1, .mrrChurned: -1]
        for (key, value) in counters.values {
            let place = Place(product: key.productID, storefront: key.storefront, currency: key.currency, day: key.day)
            if key.metric == .mrrGrossChange { change[place, default: 0] += value }
            if let sign = signs[key.metric] { movement[place, default: 0] += sign * value }
        }
        let places = Set(change.keys).union(movement.keys)
        for place in places {
            #expect(movement[place, default: 0] == change[place, default: 0], "\(place)")
        }
        return places.count
    }

    @Test("an introductory price's end is an expansion within the product, kept under the period without an offer")
    func introductoryPriceEndingIsAnExpansion() {
        var first = Self.transaction("1", from: Self.at(1, 1), to: Self.at(2, 1), price: 5_000, reason: .purchase)
        first.offer = Offer(type: .introductory, paymentMode: .payAsYouGo, period: "P1M")
        let counters = Self.counters([first, Self.transaction("2", from: Self.at(2, 1), to: Self.at(3, 1))])
        func movement(_ metric: AnalyticsMetric) -> [String: Int64] {
            counters.values.filter { $0.key.metric == metric }.reduce(into: [:]) { $0[$1.key.offerType, default: 0] += $1.value }
        }
        #expect(movement(.mrrNew) == ["introductory": 5_000] && movement(.mrrExpansion) == ["": 5_000])
        #expect(movement(.mrrChurned) == ["": 10_000] && movement(.mrrContraction).isEmpty)
    }

    @Test("a price rise is an expansion, a fall a contraction; a crossgrade contracts one product and expands the other")
    func expansionAndContraction() {
        let counters = Self.counters([
            Self.transaction("1", from: Self.at(1, 1), to: Self.at(2, 1), reason: .purchase),
            Self.transaction("2", from: Self.at(2, 1), to: Self.at(3, 1), price: 15_000),
            Self.transaction("3", from: Self.at(3, 1), to: Self.at(4, 1), price: 8_000, isUpgraded: true),
            // Quarterly at 30.00 is 10.00 a month.
            Self.transaction("4", product: "quarterly", from: Self.at(3, 10), to: Self.at(6, 10), price: 30_000, reason: .purchase),
        ])
        #expect(Self.days(counters, .mrrNew) == [Self.day(1, 1): 10_000])
        #expect(Self.days(counters, .mrrExpansion, product: "monthly") == [Self.day(2, 1): 5_000])
        #expect(Self.days(counters, .mrrContraction, product: "monthly") == [Self.day(3, 1): 7_000, Self.day(3, 10): 8_000])
        #expect(Self.days(counters, .mrrExpansion, product: "quarterly") == [Self.day(3, 10): 10_000])
        #expect(Self.days(counters, .mrrChurned) == [Self.day(6, 10): 10_000])
        #expect(Self.days(counters, .mrrReactivation).isEmpty)
    }

    /// The churn rate's numerator is the churn of those active at a bucket's start: a churn
    /// says whether its run of paid periods began the same day, week or month.
    @Test("a churn says whether the run it ends began the same day, week or month")
    func churnRuns() {
        // Bought Monday March 2, refunded Thursday March 12: the same month, not the same week.
        let refunded = Self.counters([Self.transaction("1", from: Self.at(3, 2, 9), to: Self.at(4, 2, 9), reason: .purchase, revoked: Self.at(3, 12))])
        #expect(Self.days(refunded, .churnOther) == [Self.day(3, 12): 1])
        #expect(Self.days(refunded, .churnStartedSameMonth) == [Self.day(3, 12): 1])
        #expect(Self.days(refunded, .churnStartedSameWeek).isEmpty && Self.days(refunded, .churnStartedSameDay).isEmpty)
        // A run from January renewed into March and expired there: not the same month. Its
        // resubscription in April, expired in April, is.
        let runs = Self.counters(
            [
                Self.transaction("1", from: Self.at(1, 20), to: Self.at(2, 20), reason: .purchase),
                Self.transaction("2", from: Self.at(2, 20), to: Self.at(3, 20)),
                Self.transaction("3", from: Self.at(4, 1), to: Self.at(4, 29), reason: .purchase),
            ], info: Self.info(willRenew: false, signed: Self.at(5, 1), reason: .voluntary))
        #expect(Self.days(runs, .churnOther) == [Self.day(3, 20): 1])
        #expect(Self.days(runs, .churnVoluntary) == [Self.day(4, 29): 1])
        #expect(Self.days(runs, .churnStartedSameMonth) == [Self.day(4, 29): 1])
    }

    @Test("a failed renewal is a billing issue, its MRR at risk until it is recovered or given up")
    func billingIssues() {
        // Recovered nine days later.
        let recovered = Self.counters([
            Self.transaction("1", from: Self.at(1, 5), to: Self.at(2, 5), reason: .purchase),
            Self.transaction("2", from: Self.at(2, 14), to: Self.at(3, 14), price: 10_000),
        ])
        #expect(Self.days(recovered, .billingIssue) == [Self.day(2, 5): 1])
        #expect(Self.days(recovered, .billingRetryRecovery) == [Self.day(2, 14): 1])
        #expect(Self.days(recovered, .mrrAtRiskChange) == [Self.day(2, 5): 10_000, Self.day(2, 14): -10_000])
        // Still in billing retry: at risk from the period's end, with no end yet.
        let retrying = Self.counters(
            [Self.transaction("1", from: Self.at(1, 5), to: Self.at(2, 5), reason: .purchase)],
            info: Self.info(willRenew: true, signed: Self.at(2, 6), retry: true))
        #expect(Self.days(retrying, .billingIssue) == [Self.day(2, 5): 1])
        #expect(Self.days(retrying, .mrrAtRiskChange) == [Self.day(2, 5): 10_000])
    }

    /// Once a subscription recovered (or Apple gave up), its renewal info no longer says how long
    /// its grace period lasted: the app's Billing Grace Period from the catalog says it, so the
    /// past days stay in grace.
    @Test("a past billing retry keeps its first days in grace when the app has a Billing Grace Period")
    func pastGrace() throws {
        let json = """
            {"apps": [{"bundleId": "com.example.facts", "billingGracePeriodDays": 16}],
             "subscriptionGroups": [{"id": "g", "products": [{"id": "monthly", "level": 1, "duration": "P1M"}]}]}
            """
        let facts = SubscriptionFacts(catalog: try CatalogLoader.load(json: Data(json.utf8)), now: .distantPast)
        let history = [
            Self.transaction("1", from: Self.at(1, 5), to: Self.at(2, 5), reason: .purchase),
            Self.transaction("2", from: Self.at(2, 25), to: Self.at(3, 25)),
        ]
        let recovered = facts.counters(of: RecordSet(EvidenceRecords(transactions: history)))
        #expect(Self.days(recovered, .graceChange) == [Self.day(2, 5): 1, Self.day(2, 21): -1])
        #expect(Self.days(recovered, .retryChange) == [Self.day(2, 21): 1, Self.day(2, 25): -1])
        // Without one, the whole gap is billing retry.
        #expect(Self.days(Self.counters(history), .retryChange) == [Self.day(2, 5): 1, Self.day(2, 25): -1])
        #expect(Self.days(Self.counters(history), .graceChange).isEmpty)
        let wrong = json.replacingOccurrences(of: "16", with: "14")
        #expect(throws: CatalogError.self) { try CatalogLoader.load(json: Data(wrong.utf8)) }
    }

    @Test("a trial with auto-renew off is cancelled at its end, and counted as such from the renewal info that says so")
    func trialCancellation() {
        let trial = Self.transaction("t", from: Self.at(3, 1, 10), to: Self.at(3, 8, 10), reason: .purchase, trial: true)
        let cancelled = Self.counters([trial], info: Self.info(willRenew: false, signed: Self.at(3, 3, 12), reason: .voluntary))
        #expect(Self.days(cancelled, .trialCancellation) == [Self.day(3, 8): 1])
        #expect(Self.days(cancelled, .trialAutoRenewOffChange) == [Self.day(3, 3): 1, Self.day(3, 8): -1])
        #expect(Self.days(cancelled, .churnVoluntary).isEmpty)
        let converted = Self.counters([trial, Self.transaction("1", from: Self.at(3, 8, 10), to: Self.at(4, 8, 10))])
        #expect(Self.days(converted, .trialCancellation).isEmpty && Self.days(converted, .trialConverted) == [Self.day(3, 8): 1])
        // A paid subscription with auto-renew off is scheduled churn until its end.
        let leaving = Self.counters(
            [Self.transaction("1", from: Self.at(3, 1), to: Self.at(4, 1), reason: .purchase)], info: Self.info(willRenew: false, signed: Self.at(3, 9)))
        #expect(Self.days(leaving, .autoRenewOffChange) == [Self.day(3, 9): 1, Self.day(4, 1): -1])
    }

    /// What the records foresee beyond their latest signed evidence, by the hour it falls in;
    /// once evidence signed after it arrives, nothing is foreseen any more.
    @Test("an end after the latest signed evidence is also kept by the hour, as scheduled")
    func scheduledByTheHour() {
        let period = Self.transaction("1", from: Self.at(3, 15, 14.5), to: Self.at(4, 15, 14.5), reason: .purchase)
        let foreseen = Self.counters([period])
        let hour = AnalyticsCounters.hour(of: Self.at(4, 15, 14))
        #expect(Self.days(foreseen, .scheduled(.activeChange)) == [hour: -1])
        #expect(Self.days(foreseen, .scheduled(.churnOther)) == [hour: 1])
        #expect(Self.days(foreseen, .scheduled(.mrrGrossChange)) == [hour: -10_000])
        #expect(Self.days(foreseen, .scheduled(.mrrChurned)) == [hour: 10_000])
        // The start is not foreseen: the evidence was signed then.
        let scheduled = Set(foreseen.values.keys.compactMap(\.metric.scheduledMetric))
        #expect(scheduled == [.activeChange, .mrrGrossChange, .mrrProceedsChange, .mrrProceedsSmallBusinessChange, .churnOther, .mrrChurned, .renewalDue(period: 1), .renewalLapsed(period: 1)])
        let confirmed = Self.counters([period], info: Self.info(willRenew: false, signed: Self.at(4, 15, 15), reason: .voluntary))
        #expect(confirmed.values.keys.allSatisfy { $0.metric.scheduledMetric == nil })
        #expect(Self.days(confirmed, .churnVoluntary) == [Self.day(4, 15): 1])
    }
}

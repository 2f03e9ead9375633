import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The analytics counters every back end must keep (``PerennialStorage/AnalyticsStorage``): the
/// figures of ``AnalyticsPopulation`` as derived by hand, the same counters whatever the order and
/// repetition of the evidence, and a rebuild from the records alone that finds them again.
public struct AnalyticsContract: Sendable {
    public enum Check: String, CaseIterable, Sendable {
        case handDerivedFigures
        case reorderedAndDuplicatedEvidenceGiveSameCounters
        case rebuildFindsTheSameCounters
        case rebuildOfSeveralBatchesFindsTheSameCounters
        case commitmentCountersMatchTheirRebuild
        case offerCountersMatchTheirRebuild
        case definitionsAreRecorded
    }

    public let makeStorage: @Sendable () async throws -> any SubscriberStorage

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        switch check {
        case .handDerivedFigures: try await handDerivedFigures()
        case .reorderedAndDuplicatedEvidenceGiveSameCounters: try await reorderedAndDuplicatedEvidenceGiveSameCounters()
        case .rebuildFindsTheSameCounters: try await rebuildFindsTheSameCounters()
        case .rebuildOfSeveralBatchesFindsTheSameCounters: try await rebuildOfSeveralBatchesFindsTheSameCounters()
        case .commitmentCountersMatchTheirRebuild: try await commitmentCountersMatchTheirRebuild()
        case .offerCountersMatchTheirRebuild: try await offerCountersMatchTheirRebuild()
        case .definitionsAreRecorded: try await definitionsAreRecorded()
        }
    }

    private typealias P = AnalyticsPopulation

    /// A migrated storage holding `evidence`, applied in that order.
    private func storage(applying evidence: [IncomingEvidence]) async throws -> any SubscriberStorage {
        let storage = try await makeStorage()
        try await storage.migrate()
        for item in evidence {
            _ = try await storage.apply(item, with: P.applier, now: P.at(4, 1))
        }
        return storage
    }

    /// Every stored row of both dimensions, the scheduled counters (whose days are hours) included.
    private func allRows(_ storage: any SubscriberStorage) async throws -> [AnalyticsDimension: [AnalyticsCounterRow]] {
        var rows: [AnalyticsDimension: [AnalyticsCounterRow]] = [:]
        for dimension in AnalyticsDimension.allCases {
            rows[dimension] = try await storage.analyticsCounters(
                AnalyticsCounterRequest(
                    appBundleID: P.bundleID, environment: .production, dimension: dimension, fromDay: 0, throughDay: 10_000_000)
            ).filter { $0.value != 0 }.sorted { ($0.metric, $0.day, $0.segment, $0.currency) < ($1.metric, $1.day, $1.segment, $1.currency) }
        }
        return rows
    }

    private func handDerivedFigures() async throws {
        let storage = try await storage(applying: P.evidence)
        let rows = try await allRows(storage)[.product] ?? []
        /// A point-in-time figure at the end of a day: its changes on that day and every earlier one.
        func atEnd(_ metric: AnalyticsMetric, _ month: Int, _ day: Int) -> Int64 {
            rows.filter { $0.metric == metric && $0.day <= P.day(month, day) }.reduce(0) { $0 + $1.value }
        }
        /// A flow over a calendar month of 2026.
        func during(_ metric: AnalyticsMetric, month: Int) -> Int64 {
            let first = P.day(month, 1)
            let next = P.day(month + 1, 1)
            return rows.filter { $0.metric == metric && $0.day >= first && $0.day < next }.reduce(0) { $0 + $1.value }
        }

        // End of January: A, B, C, E, F paid; MRR 5 × 10.00 (B's 120.00 a year is 10.00 a month).
        #expect(atEnd(.activeChange, 1, 31) == 5)
        #expect(atEnd(.trialChange, 1, 31) == 0)
        #expect(atEnd(.trialChange, 1, 7) == 1)
        #expect(atEnd(.mrrGrossChange, 1, 31) == 50_000)
        #expect(atEnd(.mrrProceedsChange, 1, 31) == 35_000)
        // January: A's trial started, ended and converted; five first paid periods; 160.00 charged.
        #expect(during(.newTrial, month: 1) == 1)
        #expect(during(.trialEnded, month: 1) == 1)
        #expect(during(.trialConverted, month: 1) == 1)
        #expect(during(.newPaid, month: 1) == 5)
        #expect(during(.revenueGross, month: 1) == 160_000)
        #expect(during(.revenueProceeds, month: 1) == 112_000)
        #expect(during(.revenueProceedsSmallBusiness, month: 1) == 136_000)

        // End of February: A, B, C, D, G paid (E and F lapsed); G's price is unknown.
        #expect(atEnd(.activeChange, 2, 28) == 5)
        #expect(atEnd(.mrrGrossChange, 2, 28) == 40_000)
        #expect(atEnd(.mrrPriceUnknownChange, 2, 28) == 1)
        #expect(atEnd(.retryChange, 2, 10) == 1)  // E, from Feb 5 until Apple gave up on Feb 20
        #expect(atEnd(.retryChange, 2, 28) == 0)
        // February: D and G new, A and C renewed, 30.00 known charges and G's unknown one; E churned
        // for billing, F without saying why.
        #expect(during(.newPaid, month: 2) == 2)
        #expect(during(.renewal, month: 2) == 2)
        #expect(during(.revenueGross, month: 2) == 30_000)
        #expect(during(.chargePriceUnknown, month: 2) == 1)
        #expect(during(.churnVoluntary, month: 2) == 0)
        #expect(during(.churnInvoluntary, month: 2) == 1)
        #expect(during(.churnOther, month: 2) == 1)

        // March: C refunded (10.00) and churned; D in billing retry Mar 1–9, recovered Mar 10;
        // F reactivated; A, D and G renewed.
        #expect(atEnd(.activeChange, 3, 31) == 5)
        #expect(atEnd(.mrrGrossChange, 3, 31) == 40_000)
        #expect(atEnd(.retryChange, 3, 5) == 1)
        #expect(atEnd(.graceChange, 3, 5) == 0)
        #expect(atEnd(.retryChange, 3, 10) == 0)
        #expect(during(.renewal, month: 3) == 3)
        #expect(during(.reactivation, month: 3) == 1)
        #expect(during(.billingRetryRecovery, month: 3) == 1)
        #expect(during(.revenueGross, month: 3) == 30_000)
        #expect(during(.refund, month: 3) == 1)
        #expect(during(.refundGross, month: 3) == 10_000)
        #expect(during(.refundProceeds, month: 3) == 7_000)
        #expect(during(.churnOther, month: 3) == 1)
        #expect(during(.churnInvoluntary, month: 3) == 0)
        // April: A expires by the customer's choice.
        #expect(during(.churnVoluntary, month: 4) == 1)

        // Cohorts: January (A, B, C, E, F) keeps 3, 3, 1; February (D, G) keeps 1, 1, 0.
        func cohort(_ metric: AnalyticsMetric, month: Int) -> Int64 {
            rows.filter { $0.metric == metric && $0.day == P.day(month, 1) }.reduce(0) { $0 + $1.value }
        }
        #expect(cohort(.cohortSize, month: 1) == 5)
        #expect((1...3).map { cohort(.cohortRetained(after: $0), month: 1) } == [3, 3, 1])
        #expect(cohort(.cohortSize, month: 2) == 2)
        #expect((1...3).map { cohort(.cohortRetained(after: $0), month: 2) } == [1, 1, 0])

        // By storefront: G alone is in FRA.
        let combined = try await allRows(storage)[.combined] ?? []
        #expect(combined.filter { $0.segment.hasPrefix("FRA|") && $0.metric == .newPaid }.map(\.value) == [1])
    }

    private func reorderedAndDuplicatedEvidenceGiveSameCounters() async throws {
        let inOrder = try await allRows(try await storage(applying: P.evidence))
        #expect(!(inOrder[.product] ?? []).isEmpty)
        let reversed = try await allRows(try await storage(applying: P.evidence.reversed()))
        #expect(reversed == inOrder)
        var generator = SeededRandomNumberGenerator(seed: 16)
        var shuffled = P.evidence + P.evidence.map { evidence in
            var copy = evidence
            copy.idempotencyKey += "-again"
            return copy
        }
        shuffled.shuffle(using: &generator)
        let messy = try await allRows(try await storage(applying: shuffled + shuffled.prefix(5)))
        #expect(messy == inOrder)
    }

    private func rebuildFindsTheSameCounters() async throws {
        let storage = try await storage(applying: P.evidence.reversed())
        let kept = try await allRows(storage)
        let facts = SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))
        let rebuild = try await storage.rebuildAnalytics(apps: [P.bundleID: facts])
        #expect(rebuild.subscriptions == 7 && rebuild.unknownApps.isEmpty)
        #expect(try await allRows(storage) == kept)
        // A rebuild not given the app's catalog cannot recompute its counters: it keeps them (and
        // the changes not folded yet, on a fresh storage), and says whose subscriptions it skipped.
        let fresh = try await self.storage(applying: P.evidence)
        for (storage, apps) in [(storage, [:]), (storage, ["com.example.other": facts]), (fresh, [:])] {
            let skipped = try await storage.rebuildAnalytics(apps: apps)
            #expect(skipped.subscriptions == 0 && skipped.rows == 0 && skipped.unknownApps == [P.bundleID: 7])
            #expect(try await allRows(storage) == kept)
        }
    }

    /// A database whose counters predate recorded definitions says 1; a recorded version reads back.
    private func definitionsAreRecorded() async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        #expect(try await storage.analyticsDefinitions() == 1)
        try await storage.recordAnalyticsDefinitions(SubscriptionFacts.definitions)
        #expect(try await storage.analyticsDefinitions() == SubscriptionFacts.definitions)
    }

    /// 150 copies of the population under other ids (1,050 subscriptions): a rebuild reads them
    /// in more than one batch and sums them on several workers.
    private func rebuildOfSeveralBatchesFindsTheSameCounters() async throws {
        let crowd = P.evidence(copies: 150)
        let storage = try await storage(applying: crowd)
        let kept = try await allRows(storage)
        let rebuild = try await storage.rebuildAnalytics(apps: [P.bundleID: SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))])
        #expect(rebuild.subscriptions == 1_050)
        #expect(try await allRows(storage) == kept)
    }

    /// The counters of `evidence` applied in order, once checked to be those of the evidence
    /// reversed and of a rebuild (of `subscriptions` subscriptions).
    private func countersMatchingTheirRebuild(
        of evidence: [IncomingEvidence], subscriptions: Int
    ) async throws -> [AnalyticsDimension: [AnalyticsCounterRow]] {
        let storage = try await storage(applying: evidence)
        let kept = try await allRows(storage)
        #expect(try await allRows(try await self.storage(applying: evidence.reversed())) == kept)
        let rebuild = try await storage.rebuildAnalytics(apps: [P.bundleID: SubscriptionFacts(catalog: P.catalog, now: P.at(4, 1))])
        #expect(rebuild.subscriptions == subscriptions)
        #expect(try await allRows(storage) == kept)
        return kept
    }

    /// A monthly plan with a 12-month commitment (``CommitmentPopulation``), its months applied one
    /// by one: the counters the applies kept are the rebuild's and those of the evidence reversed,
    /// with MRR at the monthly charge and the one churn on the commitment's end (docs/analytics.md).
    private func commitmentCountersMatchTheirRebuild() async throws {
        let kept = try await countersMatchingTheirRebuild(of: CommitmentPopulation.evidence, subscriptions: 1)
        let rows = kept[.product] ?? []
        func sum(_ metric: AnalyticsMetric, currency: String = "", through date: Date) -> Int64 {
            let day = AnalyticsCounters.day(of: date)
            return rows.filter { $0.metric == metric && $0.currency == currency && $0.day <= day }.reduce(0) { $0 + $1.value }
        }
        #expect(sum(.mrrGrossChange, currency: "USD", through: P.at(6, 1)) == 9_990)
        #expect(sum(.revenueGross, currency: "USD", through: CommitmentPopulation.commitmentEnd) == 119_880)
        #expect(sum(.churnVoluntary, through: CommitmentPopulation.commitmentEnd) == 1)
        #expect(sum(.churnVoluntary, through: CommitmentPopulation.commitmentEnd.addingTimeInterval(-86_400)) == 0)
    }

    /// Periods bought with offers (``OfferPopulation``): the counters the applies kept under
    /// storefront, product and offer type are those of the evidence reversed and of a rebuild,
    /// and the product dimension sums them over offer types.
    private func offerCountersMatchTheirRebuild() async throws {
        let kept = try await countersMatchingTheirRebuild(of: OfferPopulation.evidence, subscriptions: 6)

        func newPaid(_ dimension: AnalyticsDimension) -> [String: Int64] {
            (kept[dimension] ?? []).filter { $0.metric == .newPaid }.reduce(into: [:]) { $0[$1.segment, default: 0] += $1.value }
        }
        // Each subscription once, under its first paid period (F's in April): B's renewal at the full price is none.
        let combined: [String: Int64] = [
            "USA|pro.monthly|": 1, "USA|pro.monthly|introductory": 1, "FRA|pro.monthly|promotional": 1, "FRA|pro.monthly|": 1,
            "FRA|pro.yearly|": 1, "USA|pro.yearly|introductory": 1,
        ]
        #expect(newPaid(.combined) == combined)
        let products: [String: Int64] = [P.monthly: 4, P.yearly: 2]
        #expect(newPaid(.product) == products)
        let revenue = (kept[.combined] ?? []).filter { $0.metric == .revenueGross && $0.segment == "USA|pro.monthly|introductory" }
        #expect(revenue.map { "\($0.value) \($0.currency)" } == ["5000 USD"])
    }
}

import Foundation
import Logging
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
@testable import PerennialServer
import PerennialSimulator
import PerennialStorage
import PerennialSQLite
import PerennialStorageContract
import Testing

/// The metrics API over ``AnalyticsPopulation``, whose figures are derived by hand in its
/// documentation and in docs/analytics.md: buckets, totals, rates, cohorts, breakdowns and CSV.
@Suite struct AnalyticsAPITests {
    typealias P = AnalyticsPopulation

    /// A server whose storage holds `evidence` (the population unless given), its clock on
    /// 2026-06-15 unless `now` is given.
    func harness(
        now: Date = P.at(6, 15), environments: [AppStoreEnvironment] = [.production], analytics: AnalyticsConfiguration = AnalyticsConfiguration(),
        evidence: [IncomingEvidence] = P.evidence
    ) async throws -> ServerHarness {
        let storage = try ServerHarness.temporarySQLite()
        try await storage.migrate()
        // Applied on April 1, or by the report's "now" when that is earlier: evidence is never
        // applied after the instant a report is read at.
        for evidence in evidence {
            _ = try await storage.apply(evidence, with: P.applier, now: min(now, P.at(4, 1)))
        }
        let app = AppConfiguration(
            id: "analytics", bundleID: P.bundleID, appAppleID: 1_234_567_891, catalog: .catalog(P.catalog), environments: environments,
            publicKeys: [SecretValue("pk_analytics")], trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])],
            analytics: analytics)
        let harness = try await ServerHarness(
            storage: storage, apps: [app], adminKeys: [AdminKeyConfiguration(name: "dashboard", key: "sk_read_only", scope: .readOnly)])
        harness.clock.now = now
        return harness
    }

    struct Report: Decodable {
        let through: String
        let asOf: String
        struct Point: Decodable {
            let start: String
            let end: String
            let figures: [String: Double?]
        }
        struct Segment: Decodable {
            let key: String?
            let points: [Point]
            let total: [String: Double?]
        }
        struct Cohort: Decodable {
            let month: String
            let size: Int
            let retained: [Int?]
            let revenue: [Int?]
        }
        struct Renewal: Decodable {
            let period: Int
            let due: Int
            let renewed: Int
            let rate: Double?
        }
        let environment: String
        let currency: String
        let segments: [Segment]
        let previousTotal: [String: Double?]
        let cohorts: [Cohort]
        let renewals: [Renewal]
    }

    func get(_ client: any TestClientProtocol, _ query: String) async throws -> Report {
        let response = try await client.send(.get, "/admin/v1/apps/analytics/metrics?\(query)", key: ServerHarness.adminKey)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(Report.self)
    }

    /// An app that accepts Production reports it unless asked; one in testing (Sandbox only, as
    /// the simulator's demo) reports Sandbox, not a Production with nothing in it. The population is
    /// Production evidence, so its figures appear only where Production is reported.
    @Test func theDefaultEnvironmentIsProductionUnlessTheAppOnlyAcceptsSandbox() async throws {
        let range = "from=2026-01-01&through=2026-01-31&granularity=month"
        try await harness(environments: [.sandbox, .production]).test { client in
            let report = try await get(client, range)
            #expect(report.environment == "Production" && report.segments.first?.total["activeSubscriptions"] == 5)
        }
        try await harness(environments: [.sandbox]).test { client in
            let report = try await get(client, range)
            #expect(report.environment == "Sandbox" && report.segments.first?.total["activeSubscriptions"] == 0)
            let asked = try await get(client, range + "&environment=Production")
            #expect(asked.environment == "Production" && asked.segments.first?.total["activeSubscriptions"] == 5)
        }
    }

    @Test func monthlyFiguresMatchTheHandDerivedOnes() async throws {
        try await harness().test { client in
            let report = try await get(client, "from=2026-01-01&through=2026-03-31&granularity=month")
            #expect(report.currency == "USD")
            let overall = try #require(report.segments.first)
            #expect(overall.key == nil && report.segments.count == 1)
            #expect(overall.points.map(\.start) == ["2026-01-01", "2026-02-01", "2026-03-01"])
            #expect(overall.points.map(\.end) == ["2026-02-01", "2026-03-01", "2026-04-01"])
            let (january, february, march) = (overall.points[0].figures, overall.points[1].figures, overall.points[2].figures)
            #expect(january["activeSubscriptions"] == 5 && january["mrrGross"] == 50_000 && january["revenueGross"] == 160_000)
            #expect(january["newTrials"] == 1 && january["trialConversionRate"] == 1.0 && january["newPaidSubscriptions"] == 5)
            #expect(january["churnRate"] == .some(nil))  // nobody was active on January 1
            #expect(february["activeAtStart"] == 5 && february["churn"] == 2 && february["churnRate"] == 0.4)
            #expect(february["churnInvoluntary"] == 1 && february["mrrPriceUnknown"] == 1 && february["chargesPriceUnknown"] == 1)
            #expect(march["refunds"] == 1 && march["refundsGross"] == 10_000 && march["refundRate"] == 10_000.0 / 30_000.0)
            #expect(march["reactivations"] == 1 && march["billingRetryRecoveries"] == 1 && march["renewals"] == 3)
            // The range's total: point-in-time figures at its end, flows summed.
            #expect(overall.total["activeSubscriptions"] == 5 && overall.total["revenueGross"] == 220_000 && overall.total["churn"] == 3)
            // The 90 days before held nothing.
            #expect(report.previousTotal["revenueGross"] == 0 && report.previousTotal["activeSubscriptions"] == 0)
            // Cohorts judged on June 15: January's known through 4 months, February's through 3.
            #expect(report.cohorts.map(\.month) == ["2026-01-01", "2026-02-01", "2026-03-01"])
            #expect(report.cohorts[0].size == 5 && report.cohorts[0].retained == [3, 3, 1, 1] + Array(repeating: nil, count: 8))
            #expect(report.cohorts[1].size == 2 && report.cohorts[1].retained == [1, 1, 0] + Array(repeating: nil, count: 9))
        }
    }

    /// MRR movement, billing issues, revenue at risk and scheduled churn of the population, derived
    /// by hand in docs/analytics.md: each month's net movement is its change of MRR.
    @Test func movementAndBillingFiguresMatchTheHandDerivedOnes() async throws {
        try await harness().test { client in
            let months = try await get(client, "from=2026-01-01&through=2026-04-30&granularity=month").segments[0].points.map(\.figures)
            func figure(_ name: String) -> [Double?] { months.map { $0[name] ?? nil } }
            // New: A, B, C, E, F in January, D in February. Churned: E, F in February; C (refund)
            // and D (billing retry) in March; A, F, D in April. Reactivated: F, D in March.
            #expect(figure("mrrNew") == [50_000, 10_000, 0, 0])
            #expect(figure("mrrChurned") == [0, 20_000, 20_000, 30_000])
            #expect(figure("mrrReactivation") == [0, 0, 20_000, 0])
            #expect(figure("mrrExpansion") == [0, 0, 0, 0] && figure("mrrContraction") == [0, 0, 0, 0])
            #expect(figure("mrrNetMovement") == [50_000, -10_000, 0, -30_000])
            #expect(figure("mrrGross") == [50_000, 40_000, 40_000, 10_000])
            #expect(figure("arrGross") == [600_000, 480_000, 480_000, 120_000])
            // E's renewal failed on February 5, D's on March 1; D recovered.
            #expect(figure("billingIssues") == [0, 1, 1, 0])
            #expect(figure("billingRecoveryRate") == [nil, 0, 1, nil])
            // A turned auto-renew off on March 20: scheduled churn at the end of March.
            #expect(figure("autoRenewOff") == [0, 0, 1, 0])
            #expect(figure("netRevenueGross") == [160_000 - 0, 30_000, 30_000 - 10_000, 0])
            // E's 10.00 a month at risk from February 5 until Apple gave up on February 20.
            let days = try await get(client, "from=2026-02-04&through=2026-02-21").segments[0].points.map { $0.figures["mrrAtRisk"] ?? nil }
            #expect(days == [0] + Array(repeating: 10_000, count: 15) + [0, 0])
        }
    }

    /// Customers, paying customers, ARPU and ARPPU by month, renewals by their period's number,
    /// and the cohorts' realized LTV, derived by hand in docs/analytics.md.
    @Test func customersRenewalsAndLifetimeValueMatchTheHandDerivedOnes() async throws {
        try await harness().test { client in
            let report = try await get(client, "from=2026-01-01&through=2026-03-31&granularity=month")
            let months = report.segments[0].points.map(\.figures)
            func figure(_ name: String) -> [Double?] { months.map { $0[name] ?? nil } }
            // January: A's trial, B, C, E, F entered and all but A's trial were charged. February:
            // five active at its start, D and G entered; A, C, D, G charged. March: five active at
            // its start, F came back (D's recovery follows its own March 1 end); A, D, F, G charged.
            #expect(figure("customers") == [5, 7, 6] && figure("payingCustomers") == [5, 4, 4])
            #expect(figure("arpu") == [32_000, 4_285, 5_000] && figure("arppu") == [32_000, 7_500, 7_500])
            let total = report.segments[0].total
            #expect(total["customers"] == 18 && total["payingCustomers"] == 13 && total["arpu"] == 12_222 && total["arppu"] == 16_923)
            // Through June 15: first periods due A2, C1, D1, E1, F1, F2, G1 (A2, C1, D1, G1
            // renewed); second A3, D2, G2 (A3 renewed); third A4.
            let whole = try await get(client, "from=2026-01-01&through=2026-06-15&granularity=month")
            #expect(whole.renewals.map(\.period) == [1, 2, 3, 4, 5])
            #expect(whole.renewals.map(\.due) == [7, 3, 1, 0, 0] && whole.renewals.map(\.renewed) == [4, 1, 0, 0, 0])
            #expect(whole.renewals[0].rate == 4.0 / 7.0 && whole.renewals[3].rate == nil)
            // January's cohort: 160.00 in its first month (B's year among it), A's and F's 10.00
            // (C's second month refunded), then A's third month; February's: D twice (G's price unknown).
            #expect(whole.cohorts[0].revenue == [160_000, 180_000, 190_000, 190_000] + Array(repeating: nil, count: 8))
            #expect(whole.cohorts[1].revenue == [10_000, 20_000, 20_000] + Array(repeating: nil, count: 9))
        }
    }

    /// The churn rate is a cohort's: of those active at a bucket's start, the share that churned
    /// in it. H, bought on March 2 and refunded on March 12, churns in March without being one
    /// of March's starting actives; a range's rate averages its buckets, so a range that starts
    /// before anyone subscribed still has one.
    @Test func churnRateCountsOnlyThoseActiveAtTheStart() async throws {
        let h = IncomingEvidence(
            appBundleID: P.bundleID, kind: .signedTransaction, idempotencyKey: "H1", raw: Data("raw H1".utf8), receivedAt: P.at(3, 12),
            records: EvidenceRecords(transactions: [
                Transaction(
                    transactionID: "H1", originalTransactionID: "H", bundleID: P.bundleID, productID: P.monthly, productType: .autoRenewable,
                    subscriptionGroupID: P.group, purchaseDate: P.at(3, 2, 9), expiresDate: P.at(4, 2, 9), reason: .purchase,
                    revocation: Revocation(date: P.at(3, 12), reason: .other, type: .refundFull), price: Money(milliUnits: 10_000, currency: "USD"),
                    storefront: "USA", environment: .production, provenance: Provenance(source: .signedTransaction, versionDate: P.at(3, 12), isSigned: true))
            ]), presentedBy: nil, environment: .production)
        try await harness(evidence: P.evidence + [h]).test { client in
            let report = try await get(client, "from=2026-01-01&through=2026-03-31&granularity=month")
            let march = report.segments[0].points[2].figures
            #expect(march["churn"] == 2 && march["activeAtStart"] == 5)
            #expect(march["churnOfActiveAtStart"] == 1 && march["churnRate"] == 0.2)
            // January: nobody active at its start. February 2 of 5, March 1 of 5.
            #expect(report.segments[0].total["churnRate"] == 3.0 / 10.0 && report.segments[0].total["churn"] == 4)
            // A range clipped at its start (mid-week) has no churn of actives for that bucket.
            let weeks = try await get(client, "from=2026-03-04&through=2026-03-15&granularity=week").segments[0].points
            #expect(weeks[0].figures["churnOfActiveAtStart"] == .some(nil) && weeks[1].figures["churnOfActiveAtStart"] == 1)
        }
    }

    /// Today is judged at the present instant: a period that ends later today is still active
    /// and has not churned, nothing is reported after today, and a change foreseen in the current
    /// hour counts once the hour has passed.
    @Test func todayIsJudgedAtThePresentInstant() async throws {
        func subscription(_ id: String, endingAt hour: Double, willRenew: Bool) -> IncomingEvidence {
            let start = P.at(2, 15).addingTimeInterval(hour * 3_600)
            let end = P.at(3, 15).addingTimeInterval(hour * 3_600)
            return IncomingEvidence(
                appBundleID: P.bundleID, kind: .signedTransaction, idempotencyKey: id, raw: Data("raw \(id)".utf8), receivedAt: start,
                records: EvidenceRecords(
                    transactions: [
                        Transaction(
                            transactionID: id + "1", originalTransactionID: id, bundleID: P.bundleID, productID: P.monthly, productType: .autoRenewable,
                            subscriptionGroupID: P.group, purchaseDate: start, expiresDate: end, reason: .purchase,
                            price: Money(milliUnits: 10_000, currency: "USD"), storefront: "USA", environment: .production,
                            provenance: Provenance(source: .signedTransaction, versionDate: start, isSigned: true))
                    ],
                    renewalInfos: [
                        RenewalInfo(
                            originalTransactionID: id, productID: P.monthly, willAutoRenew: willRenew, environment: .production,
                            provenance: Provenance(source: .notificationV2, versionDate: P.at(3, 1), isSigned: true))
                    ]), presentedBy: nil, environment: .production)
        }
        // Ending on March 15 at 06:00 (auto-renew off), 10:15 and 14:00 (both renewing).
        let evidence = [subscription("S", endingAt: 6, willRenew: false), subscription("T", endingAt: 10.25, willRenew: true), subscription("U", endingAt: 14, willRenew: true)]
        try await harness(now: P.at(3, 15, 10).addingTimeInterval(30 * 60), evidence: evidence).test { client in
            let report = try await get(client, "from=2026-03-14&through=2026-12-31")
            #expect(report.through == "2026-03-15" && report.asOf.hasPrefix("2026-03-15T10:30:00"))
            #expect(report.segments[0].points.map(\.start) == ["2026-03-14", "2026-03-15"])
            let today = report.segments[0].points[1].figures
            // S left at 06:00; T's end falls in the current hour, U's at 14:00: both still active.
            #expect(today["activeSubscriptions"] == 2 && today["mrrGross"] == 20_000)
            #expect(today["churnVoluntary"] == 1 && today["churnOther"] == 0 && today["mrrChurned"] == 10_000)
            #expect(today["autoRenewOff"] == 0)
            #expect(report.segments[0].total["activeSubscriptions"] == 2)
            let after = try await client.send(.get, "/admin/v1/apps/analytics/metrics?from=2026-03-16&through=2026-03-20", key: ServerHarness.adminKey)
            #expect(after.status == .badRequest && after.text.contains("the range starts after today (2026-03-15)"), "\(after.text)")
        }
        try await harness(now: P.at(3, 15, 11).addingTimeInterval(30 * 60), evidence: evidence).test { client in
            let today = try await get(client, "from=2026-03-15&through=2026-03-15").segments[0].points[0].figures
            // At 11:30 the hour of T's end has passed: T counts as churned until evidence says it renewed.
            #expect(today["activeSubscriptions"] == 1 && today["churnOther"] == 1)
        }
    }

    /// A server upgraded from counters of older definitions rebuilds them once by itself, and
    /// records that it did: the figures the new definitions add are there without a manual step.
    @Test func olderDefinitionsAreRebuiltOnceAtStart() async throws {
        let storage = try ServerHarness.temporarySQLite()
        try await storage.migrate()
        for evidence in P.evidence { _ = try await storage.apply(evidence, with: P.applier, now: P.at(4, 1)) }
        #expect(try await storage.analyticsDefinitions() == 1)
        let app = AppConfiguration(
            id: "analytics", bundleID: P.bundleID, appAppleID: 1_234_567_891, catalog: .catalog(P.catalog), environments: [.production],
            publicKeys: [SecretValue("pk_analytics")], trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])])
        let context = try AppContext(configuration: app, environment: [:], transport: SimulatedVerifyReceipt(world: try StoreWorld()))
        let upgrade = AnalyticsDefinitionsUpgrade(storage: storage, apps: try AppRegistry([context]), clock: VirtualClock(start: P.at(4, 1)), logger: Logger(label: "test"))
        let rebuild = try #require(try await upgrade.upgrade())
        #expect(rebuild.subscriptions == 7)
        #expect(try await storage.analyticsDefinitions() == SubscriptionFacts.definitions)
        #expect(try await upgrade.upgrade() == nil)  // recorded: nothing to do at the next start
    }

    /// The overview's breakdown selector splits the range by product (or group, or storefront),
    /// each row the segment's totals, as the API gives them.
    @Test func theOverviewSplitsTheRangeByTheChosenBreakdown() async throws {
        try await harness().test { client in
            let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let page = try await dashboard.get("/dashboard?app=analytics&range=365d&breakdown=product").text
            #expect(page.contains("<option value=\"product\" selected>By product</option>"))
            // On June 15 only B, the yearly, is paid: 10.00 a month.
            #expect(page.contains("<tr><td>pro.yearly</td><td class=\"num\">1</td><td class=\"num\">10.00 USD</td>"), "\(page)")
            #expect(page.contains("<tr><td>pro.monthly</td><td class=\"num\">0</td>"))
            let storefronts = try await dashboard.get("/dashboard?app=analytics&range=365d&breakdown=storefront").text
            #expect(storefronts.contains("<th>Storefront</th>") && storefronts.contains("<tr><td>FRA</td>"))
            let whole = try await dashboard.get("/dashboard?app=analytics&range=365d").text
            #expect(!whole.contains("<th>Product</th>") && whole.contains("Net MRR movement") && whole.contains("Revenue at risk"))
            // January's cohort: 32.00 per subscriber in its first month, 38.00 after four; first
            // paid periods due 7, renewed 4.
            #expect(whole.contains("<h3>Realized lifetime value</h3>"))
            #expect(whole.contains("<td class=\"num\">32.00 USD</td><td class=\"num\">36.00 USD</td><td class=\"num\">38.00 USD</td><td class=\"num\">38.00 USD</td>"), "\(whole)")
            #expect(whole.contains("<tr><td>1</td><td class=\"num\">7</td><td class=\"num\">4</td><td class=\"num\">57.1%</td></tr>"))
        }
    }

    /// The overview says what its figures leave out, beside them: charges and refunds whose price
    /// the catalog does not know (counted, never summed), and a currency without an exchange rate.
    @Test func theOverviewSaysWhatItLeavesOut() async throws {
        try await harness().test { client in
            let whole = try await client.send(.get, "/admin/v1/apps/analytics/metrics?from=2026-01-01&through=2026-06-15", key: ServerHarness.adminKey)
            let total = try #require(try whole.decode(Report.self).segments.first?.total)
            let charges = try #require(total["chargesPriceUnknown"] ?? nil)
            #expect(charges > 0)
            let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let page = try await dashboard.get("/dashboard?app=analytics&range=365d")
            #expect(page.text.contains("and \(Int(charges)) charges whose price is unknown"), "\(page.text)")
            #expect(!page.text.contains("are left out of every figure"))
        }
        try await harness(analytics: AnalyticsConfiguration(reportingCurrency: "EUR")).test { client in
            let report = try await client.send(.get, "/admin/v1/apps/analytics/metrics?from=2026-01-01&through=2026-06-15", key: ServerHarness.adminKey)
            #expect((try JSONSerialization.jsonObject(with: report.data) as? [String: Any])?["unconvertedCurrencies"] as? [String] == ["USD"])
            let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let page = try await dashboard.get("/dashboard?app=analytics&range=365d")
            #expect(page.text.contains("Amounts in USD are left out of every figure: the configuration gives no exchange rate to EUR"), "\(page.text)")
        }
    }

    @Test func daysAndWeeksSplitTheRange() async throws {
        try await harness().test { client in
            let days = try await get(client, "from=2026-03-01&through=2026-03-10")
            let retry = days.segments[0].points.map { $0.figures["inBillingRetry"] ?? nil }
            // D is in billing retry at the end of March 1…9, recovered on the 10th.
            #expect(retry == Array(repeating: 1, count: 9) + [0])
            let weeks = try await get(client, "from=2026-01-01&through=2026-01-31&granularity=week")
            // 2026-01-01 is a Thursday: the first week is clipped, weeks start on Mondays.
            #expect(weeks.segments[0].points.map(\.start) == ["2026-01-01", "2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26"])
            #expect(weeks.segments[0].points.last?.end == "2026-02-01")
        }
    }

    @Test func breakdownsSplitBySegment() async throws {
        try await harness().test { client in
            let storefronts = try await get(client, "from=2026-02-01&through=2026-02-28&granularity=month&breakdown=storefront")
            #expect(storefronts.segments.map(\.key) == [nil, "FRA", "USA"])
            #expect(storefronts.segments[1].total["newPaidSubscriptions"] == 1)
            #expect(storefronts.segments[2].total["newPaidSubscriptions"] == 1)
            let products = try await get(client, "from=2026-01-01&through=2026-01-31&granularity=month&breakdown=product")
            #expect(products.segments.map(\.key) == [nil, P.monthly, P.yearly])
            #expect(products.segments[2].total["revenueGross"] == 120_000)
            let groups = try await get(client, "from=2026-01-01&through=2026-01-31&granularity=month&breakdown=subscriptionGroup")
            #expect(groups.segments.map(\.key) == [nil, P.group])
            #expect(groups.segments[1].total["revenueGross"] == 160_000)
        }
    }

    @Test func csvHasOneRowPerSegmentAndBucket() async throws {
        try await harness().test { client in
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(ServerHarness.adminKey)"
            headers[.accept] = "text/csv"
            let response = try await client.execute(
                uri: "/admin/v1/apps/analytics/metrics?from=2026-01-01&through=2026-03-31&granularity=month", method: .get, headers: headers)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = response.text.split(separator: "\n")
            #expect(lines.count == 4)
            #expect(lines[0].hasPrefix("segment,start,end,activeSubscriptions,activeTrials,"))
            #expect(lines[1].hasPrefix(",2026-01-01,2026-02-01,5,0,0,0,50000,"))
            let cohorts = try await client.execute(
                uri: "/admin/v1/apps/analytics/metrics/cohorts?from=2026-01-01&through=2026-01-31", method: .get, headers: headers)
            let header = "month,size," + (1...12).map { "retained\($0)" }.joined(separator: ",") + "," + (1...12).map { "revenue\($0)" }.joined(separator: ",")
            #expect(cohorts.text == header + "\n2026-01-01,5,3,3,1,1,,,,,,,,,160000,180000,190000,190000,,,,,,,,\n")
        }
    }

    @Test func prometheusShowsTheCurrentSubscribersAndMRR() async throws {
        @Sendable func gauges(_ client: any TestClientProtocol) async throws -> [String: Double] {
            let response = try await client.send(.get, "/metrics", key: nil)
            var values: [String: Double] = [:]
            for line in response.text.split(separator: "\n") where line.contains(#"app="analytics""#) && line.contains(#"environment="Production""#) {
                guard let name = line.split(separator: "{").first, let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
                values[String(name)] = value
            }
            return values
        }
        // On March 31 at noon: A, B, D, F and G paid; MRR 40.00 (G's price unknown); A's auto-renew off.
        try await harness(now: P.at(3, 31, 12)).test { client in
            let values = try await gauges(client)
            #expect(values["perennial_subscriptions_active_count"] == 5 && values["perennial_trials_active_count"] == 0)
            #expect(values["perennial_mrr_gross_currency"] == 40 && values["perennial_mrr_proceeds_currency"] == 28)
            #expect(values["perennial_subscriptions_auto_renew_off_count"] == 1 && values["perennial_mrr_at_risk_currency"] == 0)
        }
        // On March 5: D in billing retry, its 10.00 a month at risk.
        try await harness(now: P.at(3, 5, 12)).test { client in
            let values = try await gauges(client)
            #expect(values["perennial_subscriptions_billing_retry_count"] == 1 && values["perennial_subscriptions_grace_period_count"] == 0)
            #expect(values["perennial_mrr_at_risk_currency"] == 10)
        }
    }

    /// The metrics answers' exact JSON (Golden/admin-metrics*.json).
    @Test func metricsGoldenAnswers() async throws {
        try await harness().test { client in
            try await client.golden(
                "admin-metrics", .get, "/admin/v1/apps/analytics/metrics?from=2026-02-01&through=2026-03-31&granularity=month&breakdown=storefront",
                key: ServerHarness.adminKey)
            try await client.golden(
                "admin-metrics-cohorts", .get, "/admin/v1/apps/analytics/metrics/cohorts?from=2026-01-01&through=2026-02-28", key: ServerHarness.adminKey)
        }
    }

    @Test func badQueriesAreRefused() async throws {
        try await harness().test { client in
            for (query, code) in [
                ("from=2026-02-30", "malformedRequest"), ("granularity=hour", "malformedRequest"), ("environment=Xcode", "malformedRequest"),
                ("from=2026-03-01&through=2026-02-01", "invalidRange"), ("from=2000-01-01&through=2026-01-01", "invalidRange"),
            ] {
                let response = try await client.send(.get, "/admin/v1/apps/analytics/metrics?\(query)", key: ServerHarness.adminKey)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.errorCode == code, "\(query)")
            }
            // A from after today, through left to its default: the message shows both days.
            let reversed = try await client.send(.get, "/admin/v1/apps/analytics/metrics?from=2999-01-01", key: ServerHarness.adminKey)
            let today = String(ISO8601DateFormatter().string(from: P.at(6, 15)).prefix(10))
            #expect(reversed.text.contains("the range ends before it starts: from 2999-01-01, through \(today)"), "\(reversed.text)")
            let unknown = try await client.send(.get, "/admin/v1/apps/nope/metrics", key: ServerHarness.adminKey)
            #expect(unknown.status == .notFound)
            let anonymous = try await client.send(.get, "/admin/v1/apps/analytics/metrics", key: nil)
            #expect(anonymous.status == .unauthorized)
            let readOnly = try await client.send(.get, "/admin/v1/apps/analytics/metrics", key: "sk_read_only")
            #expect(readOnly.status == .ok)
        }
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialStorageContract
import Testing

/// Filters and the offer-type breakdown over ``OfferPopulation``, May 1 to June 10 by month
/// (June clipped), every figure derived by hand from the population's six subscriptions.
extension AnalyticsAPITests {
    private static let range = "from=2026-05-01&through=2026-06-10&granularity=month"

    /// One figure of the overall series, May then June.
    private func figure(_ report: Report, _ name: String) -> [Double?] {
        report.segments[0].points.map { $0.figures[name] ?? nil }
    }

    @Test func filtersKeepTheChosenProductsStorefrontsAndOfferTypes() async throws {
        try await harness(evidence: OfferPopulation.evidence).test { client in
            // All: A, B, C, E, F active at May's end (D refunded May 20); A, B, E on June 10.
            let all = try await get(client, Self.range)
            #expect(figure(all, "activeSubscriptions") == [5, 3] && figure(all, "revenueGross") == [183_000, 20_000])
            #expect(figure(all, "churn") == [1, 2] && figure(all, "newPaidSubscriptions") == [5, 0])
            // E's 50.00 a year is 4.166 a month; D's 8.333 came and went in May; F and C churned in June, B rose by 5.00.
            #expect(figure(all, "mrrGross") == [37_166, 24_166] && figure(all, "mrrNetMovement") == [27_166, -13_000])

            // Introductory: B's first month and E's year; B's June renewal has no offer.
            let introductory = try await get(client, Self.range + "&offerType=introductory")
            #expect(figure(introductory, "activeSubscriptions") == [2, 1] && figure(introductory, "revenueGross") == [55_000, 0])
            #expect(figure(introductory, "newPaidSubscriptions") == [2, 0] && figure(introductory, "churn") == [0, 0])
            #expect(figure(introductory, "mrrGross") == [9_166, 4_166])
            // A cohort member counts where its first paid period was bought: May's introductory cohort is B and E.
            #expect(introductory.cohorts.map(\.size) == [2, 0])
            // The movement is kept by product and storefront, not by offer type: none is given.
            for name in ["mrrNew", "mrrExpansion", "mrrContraction", "mrrChurned", "mrrReactivation", "mrrNetMovement"] {
                #expect(figure(introductory, name) == [nil, nil], "\(name)")
                #expect(introductory.segments[0].total[name] == .some(nil) && introductory.previousTotal[name] == .some(nil), "\(name)")
            }

            // No offer: A and F in May (D's refund among them), A and B in June.
            let none = try await get(client, Self.range + "&offerType=none")
            #expect(figure(none, "activeSubscriptions") == [2, 2] && figure(none, "revenueGross") == [120_000, 20_000])
            #expect(figure(none, "churn") == [1, 1] && figure(none, "refundsGross") == [100_000, 0] && figure(none, "newPaidSubscriptions") == [2, 0])
            let promotional = try await get(client, Self.range + "&offerType=promotional")
            #expect(figure(promotional, "activeSubscriptions") == [1, 0] && figure(promotional, "revenueGross") == [8_000, 0])
            #expect(figure(promotional, "churnVoluntary") == [0, 1])
            let either = try await get(client, Self.range + "&offerType=introductory,none")
            #expect(figure(either, "activeSubscriptions") == [4, 3] && figure(either, "revenueGross") == [175_000, 20_000])

            // France without an offer: D (refunded) and F (expired June 1).
            let france = try await get(client, Self.range + "&storefront=FRA&offerType=none")
            #expect(figure(france, "activeSubscriptions") == [1, 0] && figure(france, "revenueGross") == [110_000, 0])
            #expect(figure(france, "churn") == [1, 1])

            // The monthly product in the USA (a storefront in lower case is read in upper): A and
            // B. Without an offer type the movement is given, and it is the change of MRR.
            let monthly = try await get(client, Self.range + "&product=pro.monthly&storefront=usa")
            #expect(figure(monthly, "activeSubscriptions") == [2, 2] && figure(monthly, "revenueGross") == [15_000, 20_000])
            #expect(figure(monthly, "mrrGross") == [15_000, 20_000] && figure(monthly, "mrrNew") == [15_000, 0])
            #expect(figure(monthly, "mrrExpansion") == [0, 5_000] && figure(monthly, "mrrNetMovement") == [15_000, 5_000])
            // A product alone is read by product (not summed over products): D's 100.00 and E's 50.00.
            let yearly = try await get(client, Self.range + "&product=pro.yearly")
            #expect(figure(yearly, "activeSubscriptions") == [1, 1] && figure(yearly, "revenueGross") == [150_000, 0])
            #expect(figure(yearly, "mrrNew") == [12_499, 0] && figure(yearly, "mrrChurned") == [8_333, 0])
        }
    }

    @Test func theOfferTypeBreakdownSplitsWhatTheStorefrontBreakdownSplitsByPlace() async throws {
        try await harness(evidence: OfferPopulation.evidence).test { client in
            let offers = try await get(client, Self.range + "&breakdown=offerType")
            #expect(offers.segments.map(\.key) == [nil, "introductory", "none", "promotional"])
            #expect(offers.segments.map { $0.points[0].figures["activeSubscriptions"] ?? nil } == [5, 2, 2, 1])
            #expect(offers.segments.map { $0.total["revenueGross"] ?? nil } == [203_000, 55_000, 140_000, 8_000])
            #expect(offers.segments.allSatisfy { $0.total["mrrNew"] == .some(nil) })

            // By storefront as before offer types were kept: movement included.
            let storefronts = try await get(client, Self.range + "&breakdown=storefront")
            #expect(storefronts.segments.map(\.key) == [nil, "FRA", "USA"])
            #expect(storefronts.segments.map { $0.points[0].figures["activeSubscriptions"] ?? nil } == [5, 2, 3])
            #expect(storefronts.segments.map { $0.total["revenueGross"] ?? nil } == [203_000, 118_000, 85_000])
            #expect(storefronts.segments.map { $0.total["mrrNew"] ?? nil } == [35_499, 16_333, 19_166])

            let products = try await get(client, Self.range + "&breakdown=product&offerType=introductory")
            #expect(products.segments.map(\.key) == [nil, P.monthly, P.yearly])
            #expect(products.segments.map { $0.total["revenueGross"] ?? nil } == [55_000, 5_000, 50_000])
            let groups = try await get(client, Self.range + "&breakdown=subscriptionGroup&storefront=USA")
            #expect(groups.segments.map(\.key) == [nil, P.group] && groups.segments[1].total["revenueGross"] == 85_000)
        }
    }

    @Test func badFiltersAreRefusedWithTheirReason() async throws {
        try await harness(evidence: OfferPopulation.evidence).test { client in
            for (query, message) in [
                ("product=pro.monthly,pro.weekly", "product pro.weekly is not in the app's catalog"),
                ("storefront=US", "storefront must be three letters A–Z, an App Store storefront code like USA, not US"),
                ("storefront=U5A", "not U5A"),
                ("offerType=freeTrial", "offerType must be one of introductory, promotional, offerCode, winBack, none, not freeTrial"),
            ] {
                let response = try await client.send(.get, "/admin/v1/apps/analytics/metrics?\(query)", key: ServerHarness.adminKey)
                #expect(response.status == .badRequest && response.errorCode == "invalidFilter", "\(query)")
                #expect(response.text.contains(message), "\(response.text)")
            }
        }
    }

    @Test func csvLeavesTheMovementEmptyUnderAnOfferType() async throws {
        try await harness(evidence: OfferPopulation.evidence).test { client in
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(ServerHarness.adminKey)"
            headers[.accept] = "text/csv"
            let response = try await client.execute(
                uri: "/admin/v1/apps/analytics/metrics?\(Self.range)&breakdown=offerType&offerType=promotional", method: .get, headers: headers)
            let lines = response.text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            #expect(lines.map { $0[0] } == ["segment", "", "", "promotional", "promotional"])
            let (active, new) = (try #require(lines[0].firstIndex(of: "activeSubscriptions")), try #require(lines[0].firstIndex(of: "mrrNew")))
            #expect(lines.dropFirst().map { [$0[active], $0[new]] } == [["1", ""], ["0", ""], ["1", ""], ["0", ""]])
        }
    }

    /// The overview's filter controls: what was chosen stays chosen, the breakdown's rows are the
    /// filtered ones, and the movement tile says why it is empty.
    @Test func theOverviewFiltersByProductStorefrontAndOfferType() async throws {
        try await harness(evidence: OfferPopulation.evidence).test { client in
            let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let page = try await dashboard.get("/dashboard?app=analytics&range=30d&breakdown=offerType&product=&storefront=usa&offerType=introductory").text
            #expect(page.contains("<option value=\"offerType\" selected>By offer type</option>"))
            #expect(page.contains("<option value=\"introductory\" selected>Introductory offer</option>"))
            #expect(page.contains("<option value=\"\">All products</option>") && page.contains("<option>pro.yearly</option>"))
            #expect(page.contains("name=\"storefront\" aria-label=\"Storefronts\" placeholder=\"Storefronts: USA, FRA\" value=\"USA\""), "\(page)")
            // On June 15, of the USA's introductory periods only E's year is left.
            #expect(page.contains("<tr><td>Introductory offer</td><td class=\"num\">1</td>"), "\(page)")
            #expect(page.contains("not kept by offer type"))
            let refused = try await dashboard.get("/dashboard?app=analytics&offerType=trial")
            #expect(refused.text.contains("offerType must be one of"))
        }
    }
}

import Foundation
import PerennialCore
import PerennialStorage

/// The overview of one app over a range: KPI tiles with the change over the range just before,
/// the charts over time, the range split by product, group, storefront or offer type when asked,
/// of the products, storefronts and offer type chosen, and the cohort table as a heat map — all
/// from one ``AnalyticsReport``.
struct OverviewPage: Sendable {
    /// The ranges the overview offers, as days ending today, and the bucket each is drawn in.
    enum Range: String, CaseIterable, Sendable {
        case days30 = "30d", days90 = "90d", year = "365d"

        var days: Int {
            switch self {
            case .days30: 30
            case .days90: 90
            case .year: 365
            }
        }

        var granularity: AnalyticsGranularity {
            switch self {
            case .days30: .day
            case .days90: .week
            case .year: .month
            }
        }

        var label: String {
            switch self {
            case .days30: "30 days"
            case .days90: "90 days"
            case .year: "12 months"
            }
        }
    }

    let appIDs: [String]
    /// The app's products, offered in the filter.
    let productIDs: [String]
    let report: AnalyticsReport
    let range: Range
    /// The app's latest refund requests (Apple's `CONSUMPTION_REQUEST`), newest first.
    let refundRequests: [RefundRequestRecord]

    var body: HTML {
        let query = report.query
        let appOptions = HTML.join(appIDs.map { "<option\($0 == query.appID ? " selected" : "")>\($0)</option>" })
        let rangeOptions = HTML.join(
            Range.allCases.map { "<option value=\"\($0.rawValue)\"\($0 == range ? " selected" : "")>\($0.label)</option>" })
        let environmentOptions = HTML.join(
            [AppStoreEnvironment.production, .sandbox].map {
                "<option\($0 == query.environment ? " selected" : "")>\($0.rawValue)</option>"
            })
        let breakdownOptions = HTML.join(
            AnalyticsBreakdown.allCases.map {
                "<option value=\"\($0.rawValue)\"\($0 == query.breakdown ? " selected" : "")>\(Self.breakdownLabel($0))</option>"
            })
        let filter = query.filter
        let productOptions = HTML.join(
            ["<option value=\"\">All products</option>"]
                + productIDs.map { "<option\(filter.productIDs == [$0] ? " selected" : "")>\($0)</option>" })
        let offerOptions = HTML.join(
            ["<option value=\"\">All offers</option>"]
                + AnalyticsFilter.offerTypes.map {
                    "<option value=\"\($0)\"\(filter.offerTypes == [$0] ? " selected" : "")>\(Self.offerLabel($0))</option>"
                })
        let storefronts = filter.storefronts.sorted().joined(separator: ", ")
        return """
            <h1>Overview</h1>
            <form class="row" method="get" action="/dashboard">
            <select name="app" aria-label="App">\(appOptions)</select>
            <select name="environment" aria-label="Environment">\(environmentOptions)</select>
            <select name="range" aria-label="Range">\(rangeOptions)</select>
            <select name="breakdown" aria-label="Breakdown">\(breakdownOptions)</select>
            <select name="product" aria-label="Product">\(productOptions)</select>
            <input name="storefront" aria-label="Storefronts" placeholder="Storefronts: USA, FRA" value="\(storefronts)">
            <select name="offerType" aria-label="Offer type">\(offerOptions)</select><button type="submit">Show</button></form>
            <p class="muted">\(DashboardFormat.day(query.from)) to now (\(DashboardFormat.instant(report.asOf))), compared with the \(range.label) before. Amounts in \(report.currency).</p>\(leftOut)
            <div class="tiles">\(tiles)</div>\(breakdownTable)
            <h2>Over time</h2><div class="charts">\(charts)</div>
            <h2>Cohorts</h2>\(cohorts)
            <h2>Renewals by period</h2>\(renewals)
            <h2>Refund requests</h2>\(refunds)
            <h2>Imports</h2><p><a href="\(DashboardRoutes.importsPath(app: query.appID))">Imports of \(query.appID)</a> from a previous backend, \
            with their progress and reports.</p>
            <h2>Offerings</h2><p><a href="\(DashboardRoutes.offeringsPath(app: query.appID))">Offerings of \(query.appID)</a>: what the app sells, changed without a release; \
            <a href="\(DashboardRoutes.retentionRulesPath(app: query.appID))">retention rules</a>: what customers about to leave are offered.</p>
            """
    }

    /// What Apple asked about each refund, what was answered, and how Apple decided: a missed or
    /// failed answer stands out, since the refund was decided without the app's side.
    private var refunds: HTML {
        guard !refundRequests.isEmpty else { return "<p class=\"muted\">No refund requests from Apple yet.</p>" }
        let range = report.refundRequests
        let summary: HTML = """
            <p>\(range.requested) in this range: \(range.answered) answered, \(range.unanswered) not answered; \
            Apple refunded \(range.refunded), declined \(range.declined), \(range.undecided) undecided\
            \(range.refundRate.map { " (\(DashboardFormat.percent($0)) of its decisions refunds)" } ?? "").</p>
            """
        let rows = refundRequests.map { request -> HTML in
            let user: HTML = request.appUserID.map {
                "<a href=\"\(DashboardRoutes.subscriberPath(app: report.query.appID, user: $0.rawValue))\">\($0.rawValue)</a>"
            } ?? "<span class=\"muted\">nobody</span>"
            let state: HTML = switch request.state {
            case .answered: "answered: \(request.answer?.refundPreference ?? "no preference")"
            case .pending: "pending (due by \(DashboardFormat.instant(request.deadline)))"
            case .failed, .missed, .notConfigured: "<span class=\"down\">\(request.state.rawValue)</span>"
            }
            let outcome: HTML = request.outcome.map { "\($0 == .refunded ? "refunded" : "declined")" } ?? "<span class=\"muted\">waiting</span>"
            return "<tr><td>\(DashboardFormat.instant(request.requestedAt))</td><td>\(user)</td><td>\(request.productID)</td><td>\(request.reason, or: "—")</td><td>\(state)</td><td>\(outcome)</td></tr>"
        }
        return "\(summary)<table><thead><tr><th>Asked</th><th>Subscriber</th><th>Product</th><th>Reason</th><th>Answer</th><th>Apple</th></tr></thead><tbody>\(HTML.join(rows))</tbody></table>"
    }

    /// The amounts no figure holds, said where the figures are: a currency the configuration gives
    /// no exchange rate for is left out of every sum (docs/analytics.md, "Currency").
    private var leftOut: HTML {
        guard !report.unconvertedCurrencies.isEmpty else { return "" }
        let names = report.unconvertedCurrencies.joined(separator: ", ")
        return """
            <p class="down">Amounts in \(names) are left out of every figure: the configuration gives no exchange rate \
            to \(report.currency) for them (<code>analytics.exchangeRates</code>, docs/configuration.md).</p>
            """
    }

    // MARK: Tiles

    private var tiles: HTML {
        let now = report.overall.total
        let before = report.previousTotal
        let currency = report.currency
        return HTML.join([
            Self.tile(
                "MRR", DashboardFormat.money(now.mrrGross, currency: currency), Self.change(Double(now.mrrGross), Double(before.mrrGross)),
                note: now.mrrPriceUnknown == 0 ? nil : "and \(now.mrrPriceUnknown) subscriptions whose price is unknown"),
            Self.tile("Active subscriptions", DashboardFormat.count(now.activeSubscriptions),
                Self.change(Double(now.activeSubscriptions), Double(before.activeSubscriptions))),
            Self.tile("Active trials", DashboardFormat.count(now.activeTrials), Self.change(Double(now.activeTrials), Double(before.activeTrials))),
            Self.tile("New trials", DashboardFormat.count(now.newTrials), Self.change(Double(now.newTrials), Double(before.newTrials))),
            Self.tile("Trial conversion", DashboardFormat.percent(now.trialConversionRate),
                Self.pointChange(now.trialConversionRate, before.trialConversionRate)),
            Self.tile(
                "ARR", DashboardFormat.money(now.arrGross, currency: currency), Self.change(Double(now.arrGross), Double(before.arrGross)),
                note: "twelve times MRR"),
            movementTile,
            Self.tile("Churn rate", DashboardFormat.percent(now.churnRate), Self.pointChange(now.churnRate, before.churnRate, upIsGood: false),
                note: "of those active at the start of each \(report.query.granularity.rawValue)"),
            Self.tile(
                "Scheduled churn", DashboardFormat.count(now.autoRenewOff), Self.change(Double(now.autoRenewOff), Double(before.autoRenewOff), upIsGood: false),
                note: "paid subscriptions with auto-renew off; \(now.trialsAutoRenewOff) trials, \(now.trialCancellations) trials cancelled in the range"),
            Self.tile(
                "Billing issues", DashboardFormat.count(now.billingIssues), Self.change(Double(now.billingIssues), Double(before.billingIssues), upIsGood: false),
                note: "\(now.billingRetryRecoveries) recovered (\(DashboardFormat.percent(now.billingRecoveryRate))); "
                    + "\(now.inGracePeriod) in grace and \(now.inBillingRetry) in billing retry now"),
            Self.tile(
                "Revenue at risk", DashboardFormat.money(now.mrrAtRisk, currency: currency),
                Self.change(Double(now.mrrAtRisk), Double(before.mrrAtRisk), upIsGood: false), note: "MRR of the subscriptions in grace or billing retry"),
            Self.tile("Revenue", DashboardFormat.money(now.revenueGross, currency: currency),
                Self.change(Double(now.revenueGross), Double(before.revenueGross)),
                note: now.chargesPriceUnknown == 0 ? nil : "and \(now.chargesPriceUnknown) charges whose price is unknown"),
            Self.tile("Refunds", DashboardFormat.money(now.refundsGross, currency: currency),
                Self.change(Double(now.refundsGross), Double(before.refundsGross), upIsGood: false),
                note: now.refundsPriceUnknown == 0 ? nil : "and \(now.refundsPriceUnknown) refunds whose price is unknown"),
            Self.tile("Net revenue", DashboardFormat.money(now.netRevenueGross, currency: currency),
                Self.change(Double(now.netRevenueGross), Double(before.netRevenueGross)), note: "revenue less refunds"),
        ])
    }

    /// The net MRR movement and its parts; under an offer-type filter or breakdown the report has
    /// none (docs/analytics.md, "Filters and breakdowns"), and the tile says why.
    private var movementTile: HTML {
        let (now, before, currency) = (report.overall.total, report.previousTotal, report.currency)
        guard let net = now.mrrNetMovement, let new = now.mrrNew, let expansion = now.mrrExpansion, let reactivation = now.mrrReactivation,
            let contraction = now.mrrContraction, let churned = now.mrrChurned
        else { return Self.tile("Net MRR movement", "—", "", note: "not kept by offer type") }
        return Self.tile(
            "Net MRR movement", DashboardFormat.money(net, currency: currency), Self.change(Double(net), Double(before.mrrNetMovement ?? 0)),
            note: "new \(DashboardFormat.money(new, currency: currency)), expansion \(DashboardFormat.money(expansion, currency: currency)), "
                + "reactivation \(DashboardFormat.money(reactivation, currency: currency)), "
                + "contraction \(DashboardFormat.money(contraction, currency: currency)), churned \(DashboardFormat.money(churned, currency: currency))")
    }

    // MARK: Breakdown

    private static func breakdownLabel(_ breakdown: AnalyticsBreakdown) -> String {
        switch breakdown {
        case .none: "All together"
        case .product: "By product"
        case .subscriptionGroup: "By subscription group"
        case .storefront: "By storefront"
        case .offerType: "By offer type"
        }
    }

    private static func offerLabel(_ offerType: String) -> String {
        switch offerType {
        case AnalyticsFilter.noOffer: "No offer"
        case OfferType.introductory.rawValue: "Introductory offer"
        case OfferType.promotional.rawValue: "Promotional offer"
        case OfferType.offerCode.rawValue: "Offer code"
        case OfferType.winBack.rawValue: "Win-back offer"
        default: offerType
        }
    }

    /// The range's figures per segment, when a breakdown is chosen.
    private var breakdownTable: HTML {
        let breakdown = report.query.breakdown
        guard breakdown != .none else { return "" }
        let currency = report.currency
        let rows = report.segments.filter { $0.key != nil }.map { segment -> HTML in
            let total = segment.total
            let cells: [String] = [
                DashboardFormat.count(total.activeSubscriptions), DashboardFormat.money(total.mrrGross, currency: currency),
                DashboardFormat.count(total.newPaidSubscriptions), DashboardFormat.count(total.churn), DashboardFormat.percent(total.churnRate),
                DashboardFormat.money(total.revenueGross, currency: currency), DashboardFormat.money(total.netRevenueGross, currency: currency),
            ]
            let key = segment.key.map { breakdown == .offerType ? Self.offerLabel($0) : $0.isEmpty ? "(not said)" : $0 } ?? ""
            let numbers: [HTML] = cells.map { value -> HTML in "<td class=\"num\">\(value)</td>" }
            return "<tr><td>\(key)</td>\(HTML.join(numbers))</tr>"
        }
        let names = ["Active", "MRR", "New paid", "Churn", "Churn rate", "Revenue", "Net revenue"]
        let head: [HTML] = names.map { name -> HTML in "<th class=\"num\">\(name)</th>" }
        let empty: HTML = "<tr><td colspan=\"8\" class=\"muted\">Nothing in this range.</td></tr>"
        let body: HTML = rows.isEmpty ? empty : HTML.join(rows)
        let segmentName: String = switch breakdown {
        case .storefront: "Storefront"
        case .offerType: "Offer type"
        case .product: "Product"
        case .none, .subscriptionGroup: "Group"
        }
        return """
            <h2>\(Self.breakdownLabel(breakdown))</h2>
            <div class="scroll"><table><thead><tr><th>\(segmentName)</th>\(HTML.join(head))</tr></thead>\
            <tbody>\(body)</tbody></table></div>
            """
    }

    private static func tile(_ label: String, _ value: String, _ change: HTML, note: String? = nil) -> HTML {
        let note: HTML = note.map { "<div class=\"muted\">\($0)</div>" } ?? ""
        return "<div class=\"tile\"><div class=\"label\">\(label)</div><div class=\"value\">\(value)</div><div>\(change)</div>\(note)</div>"
    }

    /// The relative change from `before` to `now`; "new" when there was nothing before.
    static func change(_ now: Double, _ before: Double, upIsGood: Bool = true) -> HTML {
        if now == before { return "<span class=\"muted\">no change</span>" }
        guard before != 0 else { return "<span class=\"muted\">none before</span>" }
        let share = (now - before) / abs(before)
        return arrow(share, text: String(format: "%+.1f%%", share * 100), upIsGood: upIsGood)
    }

    /// The change of a rate, in percentage points.
    static func pointChange(_ now: Double?, _ before: Double?, upIsGood: Bool = true) -> HTML {
        guard let now, let before else { return "<span class=\"muted\">–</span>" }
        if now == before { return "<span class=\"muted\">no change</span>" }
        return arrow(now - before, text: String(format: "%+.1f pt", (now - before) * 100), upIsGood: upIsGood)
    }

    private static func arrow(_ delta: Double, text: String, upIsGood: Bool) -> HTML {
        let good = (delta > 0) == upIsGood
        return "<span class=\"\(good ? "up" : "down")\">\(delta > 0 ? "▲" : "▼") \(text)</span> <span class=\"muted\">vs previous</span>"
    }

    // MARK: Charts

    private var charts: HTML {
        let points = report.overall.points
        let dates = points.map(\.start)
        let money: @Sendable (Double) -> String = DashboardFormat.shortMoney
        let count: @Sendable (Double) -> String = { DashboardFormat.count(Int($0.rounded())) }
        func series(_ name: String, _ color: String, _ value: (AnalyticsFigures) -> Double?) -> SVGChart.Series {
            SVGChart.Series(name: name, color: color, values: points.map { value($0.figures) })
        }
        let charts = [
            SVGChart(
                caption: "MRR (\(report.currency))", dates: dates, series: [series("MRR", "#1f6feb") { Double($0.mrrGross) }], format: money,
                floor: 4000),
            SVGChart(
                caption: "Actives", dates: dates,
                series: [
                    series("Subscriptions", "#1f6feb") { Double($0.activeSubscriptions) },
                    series("Trials", "#8250df") { Double($0.activeTrials) },
                ], format: count),
            SVGChart(
                caption: "Trials and conversions", dates: dates,
                series: [
                    series("New trials", "#8250df") { Double($0.newTrials) },
                    series("Trials ended", "#9a6700") { Double($0.trialsEnded) },
                    series("Converted", "#1a7f37") { Double($0.trialConversions) },
                ], format: count),
            SVGChart(
                caption: "Trial conversion rate", dates: dates,
                series: [series("Conversion", "#1a7f37") { $0.trialConversionRate }], format: { DashboardFormat.percent($0) }, top: 1),
            SVGChart(
                caption: "Churn", dates: dates,
                series: [
                    series("Voluntary", "#cf222e") { Double($0.churnVoluntary) },
                    series("Billing", "#bc4c00") { Double($0.churnInvoluntary) },
                    series("Other", "#6e7781") { Double($0.churnOther) },
                ], format: count),
            SVGChart(
                caption: "MRR movement (\(report.currency))", dates: dates,
                series: [
                    series("New", "#1f6feb") { $0.mrrNew.map(Double.init) },
                    series("Expansion", "#1a7f37") { $0.mrrExpansion.map(Double.init) },
                    series("Reactivation", "#8250df") { $0.mrrReactivation.map(Double.init) },
                    series("Contraction", "#9a6700") { $0.mrrContraction.map(Double.init) },
                    series("Churned", "#cf222e") { $0.mrrChurned.map(Double.init) },
                ], format: money, floor: 4000),
            SVGChart(
                caption: "Revenue and refunds (\(report.currency))", dates: dates,
                series: [
                    series("Revenue", "#1a7f37") { Double($0.revenueGross) },
                    series("Refunds", "#cf222e") { Double($0.refundsGross) },
                ], format: money, floor: 4000),
        ]
        return HTML.join(charts.map(\.html))
    }

    // MARK: Cohorts

    private var cohorts: HTML {
        guard !report.cohorts.isEmpty else { return "<p class=\"muted\">No paid subscription started in this range yet.</p>" }
        let months = report.cohorts.map(\.retained.count).max() ?? 0
        let head = HTML.join(["<th>First paid month</th><th class=\"num\">Size</th>"] + (1...max(months, 1)).map { "<th class=\"num\">+\($0)</th>" })
        let rows = report.cohorts.map { row -> HTML in
            let cells = (1...max(months, 1)).map { month -> HTML in
                guard let share = row.share(after: month) else { return "<td class=\"num muted\">·</td>" }
                // The share is the cell's color intensity: the darker, the more stayed.
                let alpha = String(format: "%.2f", 0.12 + 0.88 * share)
                return "<td class=\"cell\" style=\"background:rgba(31,111,235,\(alpha))\(share > 0.5 ? ";color:#fff" : "")\" title=\"\(row.retained[month - 1] ?? 0) of \(row.size)\">\(DashboardFormat.percent(share))</td>"
            }
            return "<tr><td>\(DashboardFormat.month(row.month))</td><td class=\"num\">\(row.size)</td>\(HTML.join(cells))</tr>"
        }
        let values = report.cohorts.map { row -> HTML in
            let cells = (1...max(months, 1)).map { month -> HTML in
                guard let value = row.lifetimeValue(after: month) else { return "<td class=\"num muted\">·</td>" }
                return "<td class=\"num\">\(DashboardFormat.money(value, currency: report.currency))</td>"
            }
            return "<tr><td>\(DashboardFormat.month(row.month))</td><td class=\"num\">\(row.size)</td>\(HTML.join(cells))</tr>"
        }
        return """
            <div class="scroll"><table class="heat"><thead><tr>\(head)</tr></thead><tbody>\(HTML.join(rows))</tbody></table></div>
            <p class="muted">Share of each month's new paid subscriptions still paid 1–\(months) months later; · is not known yet.</p>
            <h3>Realized lifetime value</h3>
            <div class="scroll"><table class="ltv"><thead><tr>\(head)</tr></thead><tbody>\(HTML.join(values))</tbody></table></div>
            <p class="muted">Each month's revenue less refunds in its subscribers' first 1–\(months) months, per subscriber (\(report.currency)).</p>
            """
    }

    /// Of the renewals due in the range, by the period's number in its run, how many came.
    private var renewals: HTML {
        let rows = report.renewals.map { row -> HTML in
            let period = row.period == AnalyticsMetric.renewalPeriods ? "\(row.period) and later" : "\(row.period)"
            return "<tr><td>\(period)</td><td class=\"num\">\(row.due)</td><td class=\"num\">\(row.renewed)</td><td class=\"num\">\(DashboardFormat.percent(row.rate))</td></tr>"
        }
        return """
            <table><thead><tr><th>Paid period</th><th class="num">Renewals due</th><th class="num">Renewed</th><th class="num">Rate</th></tr></thead>\
            <tbody>\(HTML.join(rows))</tbody></table>
            <p class="muted">A run's first paid period is 1 (after a trial or a lapse); refunded periods and those a plan change replaced are not due.</p>
            """
    }
}

import Foundation
import PerennialWire

/// An app's experiments on the dashboard (`/dashboard/apps/{appId}/experiments`,
/// docs/experiments.md): each with its state, variants and audience, buttons that start and stop
/// it, a link to its results, and a form that adds a draft — through the same actions as the admin
/// API, so the same refusals apply.
enum ExperimentsPage {
    /// The form's fields, as ``DashboardRoutes`` decodes them.
    struct Form: Decodable, Sendable {
        var id: String?
        var name: String?
        /// `a default 50, b pro 50`: per variant its id, offering and weight.
        var variants: String?
        /// Storefront codes separated by commas or spaces.
        var storefronts: String?
        var audienceNew: String?
        var audienceLapsed: String?
        var audienceActive: String?

        /// The admin API's body this form says, or why it cannot be one.
        func request() throws(APIError) -> ExperimentRequest {
            var variants: [ExperimentVariantRequest] = []
            for text in (self.variants ?? "").split(separator: ",") {
                let parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
                guard parts.count == 3, let weight = Int(parts[2]) else {
                    throw APIError.malformed("each variant is an id, an offering and a weight, such as \"a default 50\" (got '\(text.prefix(60))')")
                }
                variants.append(ExperimentVariantRequest(id: parts[0], offeringId: parts[1], weight: weight))
            }
            let audiences = [("new", audienceNew), ("lapsed", audienceLapsed), ("active", audienceActive)].filter { $0.1 != nil }.map(\.0)
            let storefrontCodes = (storefronts ?? "").split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
            let audience =
                audiences.isEmpty && storefrontCodes.isEmpty
                ? nil
                : OfferingTargetingRequest(
                    storefronts: storefrontCodes.isEmpty ? nil : storefrontCodes, minimumAppVersion: nil, maximumAppVersion: nil,
                    audiences: audiences.isEmpty ? nil : audiences)
            return ExperimentRequest(
                id: id?.trimmingCharacters(in: .whitespaces), name: name?.trimmingCharacters(in: .whitespaces) ?? "", variants: variants,
                audience: audience)
        }
    }

    static func make(_ experiments: [Experiment], appID: String, session: DashboardSessions.Session) -> DashboardPage {
        let path = DashboardRoutes.experimentsPath(app: appID)
        let token: HTML = "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrfToken)\">"
        let disabled: HTML = session.scope >= .full ? "" : " disabled title=\"needs the full scope\""
        let list: HTML =
            experiments.isEmpty
            ? "<p class=\"muted\">No experiment yet. Add a draft below, then start it (docs/experiments.md).</p>"
            : SubscriberPage.table(
                ["Experiment", "State", "Variants", "Audience", ""],
                experiments.map { experiment -> [HTML] in
                    let action: HTML =
                        switch experiment.state {
                        case "draft": button("start", experiment, path: path, token: token, disabled: disabled)
                        case "running": button("stop", experiment, path: path, token: token, disabled: disabled)
                        default: experiment.winner.map { "rolled out \($0)" } ?? ""
                        }
                    return [
                        "<a href=\"\(path)/\(experiment.id)\">\(experiment.id)</a> \(experiment.name)", "\(experiment.state)",
                        "\(experiment.variants.map { "\($0.id): \($0.offeringId) \($0.weight)%" }.joined(separator: ", "))",
                        "\(OfferingsPage.targeting(experiment.audience))", action,
                    ]
                })
        let form: HTML = """
            <h2>Add a draft</h2>
            <form class="experiment" method="post" action="\(path)">\(token)
            <p class="row"><label>Id <input id="experiment-id" name="id" required placeholder="price-2026"></label>\
            <label>Name <input id="experiment-name" name="name" size="40" placeholder="Yearly first for new users"></label></p>
            <p><label>Variants <input id="experiment-variants" name="variants" size="60" placeholder="a default 50, b yearly-first 50"></label></p>
            <p class="row"><label>Storefronts <input name="storefronts" placeholder="USA, DEU (empty: all)"></label>\
            Audiences (none: all) <label><input type="checkbox" name="audienceNew"> new</label> \
            <label><input type="checkbox" name="audienceLapsed"> lapsed</label> <label><input type="checkbox" name="audienceActive"> active</label></p>
            <p><button id="experiment-add" type="submit"\(disabled)>Add</button></p>
            </form>
            """
        return DashboardPage(
            title: "Experiments",
            body: """
                <h1>Experiments of \(appID)</h1><p><a href="\(DashboardRoutes.offeringsPath(app: appID))">Offerings</a></p>\(list)\(form)
                """, session: session)
    }

    /// One experiment's results: a row per variant with its figures and their uncertainty, and
    /// a button per variant that rolls it out.
    static func results(_ results: ExperimentResults, appID: String, session: DashboardSessions.Session) -> DashboardPage {
        let experiment = results.experiment
        let path = "\(DashboardRoutes.experimentsPath(app: appID))/\(experiment.id)"
        let token: HTML = "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrfToken)\">"
        let disabled: HTML = session.scope >= .full ? "" : " disabled title=\"needs the full scope\""
        let canRollOut = experiment.state == "running" || (experiment.state == "stopped" && experiment.winner == nil)
        func interval(_ interval: ExperimentResults.Interval?, money: Bool) -> String {
            guard let interval else { return "–" }
            if money {
                return "\(DashboardFormat.money(Int64(interval.low.rounded()), currency: results.currency)) – \(DashboardFormat.money(Int64(interval.high.rounded()), currency: results.currency))"
            }
            return "\(DashboardFormat.percent(interval.low)) – \(DashboardFormat.percent(interval.high))"
        }
        let table = SubscriberPage.table(
            ["Variant", "Offering", "Exposed", "Trials", "Conversions", "Conversion (95 %)", "P(best)", "Revenue", "Per exposed user (95 %)", ""],
            results.variants.map { variant -> [HTML] in
                let perUser = variant.revenuePerExposedUserMilliUnits.map { DashboardFormat.money(Int64($0.rounded()), currency: results.currency) } ?? "–"
                let rollOut: HTML =
                    canRollOut
                    ? """
                    <form method="post" action="\(path)/rollout">\(token)<input type="hidden" name="winner" value="\(variant.id)">\
                    <button class="link" type="submit"\(disabled)>Roll out</button></form>
                    """
                    : (experiment.winner == variant.id ? "<span class=\"badge on\">winner</span>" : "")
                return [
                    "\(variant.id)", "\(variant.offeringId) (\(variant.weight)%)", "\(DashboardFormat.count(variant.exposed))",
                    "\(DashboardFormat.count(variant.trials))", "\(DashboardFormat.count(variant.conversions))",
                    "\(DashboardFormat.percent(variant.conversionRate)) (\(interval(variant.conversionInterval, money: false)))",
                    "\(DashboardFormat.percent(variant.probabilityBest))", "\(DashboardFormat.money(variant.revenueMilliUnits, currency: results.currency))",
                    "\(perUser) (\(interval(variant.revenuePerExposedUserInterval, money: true)))", rollOut,
                ]
            })
        return DashboardPage(
            title: "Experiment \(experiment.id)",
            body: """
                <h1>\(experiment.name)</h1><p>\(experiment.id), \(experiment.state); <a href="\(DashboardRoutes.experimentsPath(app: appID))">all experiments</a></p>\(table)
                <p class="muted">Conversion: Beta(1 + conversions, 1 + exposed − conversions) per variant; the 95 % credible interval and \
                the probability to be best from \(DashboardFormat.count(results.method.draws)) seeded draws. Revenue per exposed user: mean ± \
                1.96 · s / √n. Counted from each user's first exposure (docs/experiments.md).</p>
                """, session: session)
    }

    private static func button(_ action: String, _ experiment: Experiment, path: String, token: HTML, disabled: HTML) -> HTML {
        """
        <form method="post" action="\(path)/\(experiment.id)/\(action)">\(token)<button id="experiment-\(action)-\(experiment.id)" class="link" type="submit"\(disabled)>\(action.capitalized)</button></form>
        """
    }
}

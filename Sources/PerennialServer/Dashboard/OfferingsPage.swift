import Foundation
import PerennialCore
import PerennialWire

/// An app's offerings on the dashboard (`/dashboard/apps/{appId}/offerings`, docs/offerings.md):
/// each with its products, priority and targeting, and a form that adds one or, with `?edit=`,
/// replaces one — through the same actions as the admin API, so the same refusals apply. The
/// metadata is edited as the JSON the app reads.
enum OfferingsPage {
    /// The form's fields, as ``DashboardRoutes`` decodes them.
    struct Form: Decodable, Sendable {
        /// The offering replaced; absent when adding.
        var replacing: String?
        var id: String?
        /// Product ids separated by commas or spaces, in order.
        var products: String?
        var priority: String?
        var isDefault: String?
        /// Storefront codes separated by commas or spaces.
        var storefronts: String?
        var minimumAppVersion: String?
        var maximumAppVersion: String?
        var audienceNew: String?
        var audienceLapsed: String?
        var audienceActive: String?
        /// `{"en": {...}, ...}`.
        var metadata: String?

        /// The admin API's body this form says, or why it cannot be one.
        func request() throws(APIError) -> OfferingRequest {
            let priority = try FormFields.integer(priority, named: "priority")
            var metadataObject: [String: OpaqueJSON]?
            if let text = FormFields.trimmed(metadata) {
                do {
                    metadataObject = try JSONDecoder().decode([String: OpaqueJSON].self, from: Data(text.utf8))
                } catch {
                    throw APIError.malformed("metadata must be a JSON object of locales, such as {\"en\": {\"title\": \"Go Pro\"}}")
                }
            }
            let audiences = [("new", audienceNew), ("lapsed", audienceLapsed), ("active", audienceActive)].filter { $0.1 != nil }.map(\.0)
            let storefrontCodes = FormFields.list(storefronts)
            let targeting = OfferingTargetingRequest(
                storefronts: storefrontCodes.isEmpty ? nil : storefrontCodes, minimumAppVersion: FormFields.trimmed(minimumAppVersion),
                maximumAppVersion: FormFields.trimmed(maximumAppVersion), audiences: audiences.isEmpty ? nil : audiences)
            return OfferingRequest(
                id: FormFields.trimmed(replacing) ?? FormFields.trimmed(id), products: FormFields.list(products), metadata: metadataObject, targeting: targeting,
                priority: priority, isDefault: isDefault != nil)
        }
    }

    static func make(_ offerings: [Offering], editing: Offering?, appID: String, session: DashboardSessions.Session) -> DashboardPage {
        let path = DashboardRoutes.offeringsPath(app: appID)
        let token: HTML = "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrfToken)\">"
        let canWrite = session.scope >= .full
        let disabled: HTML = canWrite ? "" : " disabled title=\"needs the full scope\""
        let list: HTML =
            offerings.isEmpty
            ? "<p class=\"muted\">No offering yet: the app gets none and shows its own paywall. Add one below (docs/offerings.md).</p>"
            : SubscriberPage.table(
                ["Offering", "Products", "Priority", "Targeting", "Locales", ""],
                offerings.map { offering -> [HTML] in
                    let name: HTML = offering.isDefault ? "\(offering.id) <span class=\"badge on\">default</span>" : "\(offering.id)"
                    return [
                        "<a href=\"\(path)?edit=\(offering.id)\">\(name)</a>", "\(offering.products.joined(separator: ", "))",
                        "\(offering.priority)", "\(targeting(offering.targeting))", "\(offering.metadata.keys.sorted().joined(separator: ", "))",
                        """
                        <form method="post" action="\(path)/\(offering.id)/delete">\(token)<button class="link" type="submit"\(disabled)>Remove</button></form>
                        """,
                    ]
                })
        return DashboardPage(
            title: "Offerings",
            body: "<h1>Offerings of \(appID)</h1><p><a href=\"\(DashboardRoutes.experimentsPath(app: appID))\">Experiments</a> between these offerings</p>\(list)\(form(editing, path: path, token: token, disabled: disabled))", session: session)
    }

    /// The targeting in a few words: "everyone" when it has no condition.
    static func targeting(_ rules: OfferingTargetingRules) -> String {
        var parts: [String] = []
        if let storefronts = rules.storefronts { parts.append(storefronts.joined(separator: ", ")) }
        switch (rules.minimumAppVersion, rules.maximumAppVersion) {
        case (let minimum?, let maximum?): parts.append("app \(minimum)–\(maximum)")
        case (let minimum?, nil): parts.append("app ≥ \(minimum)")
        case (nil, let maximum?): parts.append("app ≤ \(maximum)")
        case (nil, nil): break
        }
        if let audiences = rules.audiences { parts.append(audiences.joined(separator: ", ")) }
        return parts.isEmpty ? "everyone" : parts.joined(separator: "; ")
    }

    private static func form(_ editing: Offering?, path: String, token: HTML, disabled: HTML) -> HTML {
        let rules = editing?.targeting ?? OfferingTargetingRules()
        let audiences = Set(rules.audiences ?? [])
        func checked(_ on: Bool) -> HTML { on ? " checked" : "" }
        func audience(_ name: String, _ field: String) -> HTML {
            "<label><input type=\"checkbox\" name=\"\(field)\"\(checked(audiences.contains(name)))> \(name)</label>"
        }
        let metadata = editing.map { offering in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return (try? String(decoding: encoder.encode(offering.metadata), as: UTF8.self)) ?? "{}"
        }
        let idField: HTML =
            if let editing {
                "<input type=\"hidden\" name=\"replacing\" value=\"\(editing.id)\"><strong>\(editing.id)</strong>"
            } else {
                "<input id=\"offering-id\" name=\"id\" required placeholder=\"winter-sale\">"
            }
        return """
            <h2>\(editing.map { "Edit \($0.id)" } ?? "Add an offering")</h2>
            <form class="offering" method="post" action="\(path)">\(token)
            <p><label>Id \(idField)</label></p>
            <p><label>Products, in order <input id="offering-products" name="products" size="60" value="\(editing?.products.joined(separator: ", ") ?? "")" placeholder="product ids of the catalog"></label></p>
            <p class="row"><label>Priority <input id="offering-priority" name="priority" size="5" value="\(editing?.priority ?? 0)"></label>\
            <label><input type="checkbox" name="isDefault"\(checked(editing?.isDefault == true))> default</label></p>
            <p class="row"><label>Storefronts <input id="offering-storefronts" name="storefronts" value="\(rules.storefronts?.joined(separator: ", ") ?? "")" placeholder="USA, DEU (empty: all)"></label>\
            <label>App versions <input name="minimumAppVersion" size="8" value="\(rules.minimumAppVersion ?? "")" placeholder="from"></label>\
            <label><input name="maximumAppVersion" size="8" value="\(rules.maximumAppVersion ?? "")" placeholder="to"></label></p>
            <p class="row">Audiences (none: all) \(audience("new", "audienceNew")) \(audience("lapsed", "audienceLapsed")) \(audience("active", "audienceActive"))</p>
            <p><label>Metadata, per locale (JSON)<br><textarea id="offering-metadata" name="metadata" rows="12" cols="70" placeholder="{&quot;en&quot;: {&quot;title&quot;: &quot;Go Pro&quot;}}">\(metadata ?? "")</textarea></label></p>
            <p><button id="offering-save" type="submit"\(disabled)>\(editing == nil ? "Add" : "Save")</button></p>
            </form>
            """
    }
}

import Foundation
import PerennialCore

/// An app's retention rules on the dashboard (`/dashboard/apps/{appId}/retention-rules`,
/// docs/retention-rules.md): each with its trigger, what it chooses and for how long, and a form
/// that adds one or, with `?edit=`, replaces one (unticking "enabled" disables it) — through the
/// same actions as the admin API, so the same refusals apply.
enum RetentionRulesPage {
    /// The form's fields, as ``DashboardRoutes`` decodes them.
    struct Form: Decodable, Sendable {
        /// The rule replaced; absent when adding.
        var replacing: String?
        var id: String?
        var name: String?
        var trigger: String?
        /// Product ids separated by commas or spaces; empty for every product.
        var products: String?
        var offeringId: String?
        /// `promotional`, `winBack`, or empty for no offer.
        var offerType: String?
        var offerProductId: String?
        var offerId: String?
        var priority: String?
        var validForDays: String?
        var enabled: String?

        /// The admin API's body this form says, or why it cannot be one.
        func request() throws(APIError) -> RetentionRuleRequest {
            let offer = FormFields.trimmed(offerType).map { type in
                RetentionRuleRequest.Offer(type: type, productId: FormFields.trimmed(offerProductId) ?? "", offerId: FormFields.trimmed(offerId) ?? "")
            }
            guard let days = try FormFields.integer(validForDays, named: "validForDays") else {
                throw APIError.malformed("validForDays must say for how many days the choice is answered")
            }
            return RetentionRuleRequest(
                id: FormFields.trimmed(replacing) ?? FormFields.trimmed(id), name: name ?? "", trigger: trigger ?? "",
                productIds: FormFields.list(products), offeringId: FormFields.trimmed(offeringId), offer: offer, enabled: enabled != nil,
                priority: try FormFields.integer(priority, named: "priority"), validForDays: days)
        }
    }

    static func make(
        _ rules: [RetentionRule], offeringIDs: [String], editing: RetentionRule?, appID: String, session: DashboardSessions.Session
    ) -> DashboardPage {
        let path = DashboardRoutes.retentionRulesPath(app: appID)
        let token: HTML = "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrfToken)\">"
        let disabled: HTML = session.scope >= .full ? "" : " disabled title=\"needs the full scope\""
        let list: HTML =
            rules.isEmpty
            ? "<p class=\"muted\">No retention rule yet: customers about to leave get the app's usual offerings. Add one below (docs/retention-rules.md).</p>"
            : SubscriberPage.table(
                ["Rule", "Trigger", "Products", "Chooses", "Priority", "Valid for", "State", ""],
                rules.map { rule -> [HTML] in
                    [
                        "<a href=\"\(path)?edit=\(rule.id)\">\(rule.id)</a> \(rule.name)", "\(rule.trigger.rawValue)",
                        "\(rule.productIDs.isEmpty ? "all" : rule.productIDs.joined(separator: ", "))", "\(chosen(rule.offeringID, rule.offer))",
                        "\(rule.priority)", "\(rule.validForDays) days",
                        rule.isEnabled ? "<span class=\"badge on\">enabled</span>" : "<span class=\"badge\">disabled</span>",
                        """
                        <form method="post" action="\(path)/\(rule.id)/delete">\(token)<button class="link" type="submit"\(disabled)>Remove</button></form>
                        """,
                    ]
                })
        return DashboardPage(
            title: "Retention rules",
            body: """
                <h1>Retention rules of \(appID)</h1><p>When a subscription's auto-renew is turned off, its billing fails or it \
                expires, the matching rule chooses an offering and an offer for the user's next launch. \
                <a href="\(DashboardRoutes.offeringsPath(app: appID))">Offerings</a></p>\(list)\
                \(form(editing, offeringIDs: offeringIDs, path: path, token: token, disabled: disabled))
                """, session: session)
    }

    /// What a rule or a choice chooses, in a few words.
    static func chosen(_ offeringID: String?, _ offer: RetentionRuleOffer?) -> String {
        let parts = [offeringID.map { "offering \($0)" }, offer.map { "\($0.type.rawValue) offer \($0.offerID) on \($0.productID)" }]
        return parts.compactMap { $0 }.joined(separator: " and ")
    }

    private static func form(_ editing: RetentionRule?, offeringIDs: [String], path: String, token: HTML, disabled: HTML) -> HTML {
        func selected(_ on: Bool) -> HTML { on ? " selected" : "" }
        let triggers = HTML.join(
            RetentionRuleTrigger.allCases.map { "<option\(selected(editing?.trigger == $0))>\($0.rawValue)</option>" })
        let offerings = HTML.join(
            ([""] + offeringIDs).map { id -> HTML in
                "<option value=\"\(id)\"\(selected(editing?.offeringID == id || (editing?.offeringID == nil && id.isEmpty)))>\(id.isEmpty ? "none" : id)</option>"
            })
        let offerTypes = HTML.join(
            ([""] + RetentionRuleOffer.Kind.allCases.map(\.rawValue)).map { type -> HTML in
                "<option value=\"\(type)\"\(selected((editing?.offer?.type.rawValue ?? "") == type))>\(type.isEmpty ? "no offer" : type)</option>"
            })
        let idField: HTML =
            if let editing {
                "<input type=\"hidden\" name=\"replacing\" value=\"\(editing.id)\"><strong>\(editing.id)</strong>"
            } else {
                "<input id=\"rule-id\" name=\"id\" required placeholder=\"win-back\">"
            }
        return """
            <h2>\(editing.map { "Edit \($0.id)" } ?? "Add a retention rule")</h2>
            <form class="retention-rule" method="post" action="\(path)">\(token)
            <p class="row"><label>Id \(idField)</label> <label>Name <input id="rule-name" name="name" size="40" value="\(editing?.name ?? "")" required></label></p>
            <p class="row"><label>Trigger <select id="rule-trigger" name="trigger">\(triggers)</select></label>\
            <label>Products <input id="rule-products" name="products" size="40" value="\(editing?.productIDs.joined(separator: ", ") ?? "")" placeholder="empty: every product"></label></p>
            <p class="row"><label>Offering <select id="rule-offering" name="offeringId">\(offerings)</select></label>\
            <label>Offer <select id="rule-offer-type" name="offerType">\(offerTypes)</select></label>\
            <label>on product <input id="rule-offer-product" name="offerProductId" value="\(editing?.offer?.productID ?? "")"></label>\
            <label>offer id <input id="rule-offer-id" name="offerId" value="\(editing?.offer?.offerID ?? "")"></label></p>
            <p class="row"><label>Priority <input id="rule-priority" name="priority" size="5" value="\(editing?.priority ?? 0)"></label>\
            <label>Valid for <input id="rule-days" name="validForDays" size="5" value="\(editing?.validForDays ?? 7)"> days</label>\
            <label><input id="rule-enabled" type="checkbox" name="enabled"\(editing?.isEnabled == false ? "" : " checked")> enabled</label></p>
            <p><button id="rule-save" type="submit"\(disabled)>\(editing == nil ? "Add" : "Save")</button></p>
            </form>
            """
    }
}

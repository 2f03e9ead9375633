import PerennialWire
import Foundation
import PerennialCore
import PerennialStorage

/// One subscriber of one app: the state the server answers the app with (entitlements,
/// subscriptions, purchases) and the user's evidence timeline, each piece of evidence shown
/// decoded beside its raw form.
struct SubscriberPage: Sendable {
    let appID: String
    let answer: SubscriberResponse
    let timeline: TimelineResponse
    /// Decoded evidence by id.
    let evidence: [Int64: EvidenceDisplay]
    /// Older entries left out (``timelineLimit``).
    let hiddenEntries: Int
    /// The retention rule's choice the app is answered now, if one holds.
    let retention: RetentionRuleChoice?

    /// The most timeline entries a page shows, newest first: a long-lived subscriber has
    /// hundreds, and each shows its evidence decoded. The admin API's timeline has them all.
    static let timelineLimit = 100

    /// Gathers what the page shows: the newest entries of `timeline`, their evidence decoded once
    /// per piece.
    static func make(
        appID: String, answer: SubscriberResponse, timeline: TimelineResponse, retention: RetentionRuleChoice? = nil
    ) async -> SubscriberPage {
        var timeline = timeline
        let hidden = max(timeline.entries.count - timelineLimit, 0)
        timeline.entries.removeFirst(hidden)
        var evidence: [Int64: EvidenceDisplay] = [:]
        for entry in timeline.entries {
            guard let stored = entry.evidence, evidence[stored.id] == nil else { continue }
            evidence[stored.id] = await EvidenceDisplay(raw: Data(base64Encoded: stored.rawBase64) ?? Data())
        }
        return SubscriberPage(appID: appID, answer: answer, timeline: timeline, evidence: evidence, hiddenEntries: hidden, retention: retention)
    }

    /// What the signed-in operator may do on the page: the forms carry the session's CSRF token,
    /// and need the support scope (shown disabled without it).
    struct Controls: Sendable {
        let csrfToken: String
        let canSupport: Bool
        /// Whether the app has App Store Server API keys to refresh the subscriber with.
        let canAskApple: Bool
        /// The catalog's entitlements, offered by the grant form.
        let entitlementIDs: [String]

        var token: HTML { "<input type=\"hidden\" name=\"csrf\" value=\"\(csrfToken)\">" }
        var disabled: HTML { canSupport ? "" : " disabled title=\"needs the support scope\"" }
    }

    /// The durations the grant form offers, as the admin API takes them.
    static let grantDurations: [(value: String, label: String)] = [
        ("P1D", "1 day"), ("P1W", "1 week"), ("P1M", "1 month"), ("P3M", "3 months"), ("P1Y", "1 year"),
    ]

    /// The page, with the forms `controls` allows.
    func body(controls: Controls) -> HTML {
        let subscriber = answer.subscriber
        let refresh: HTML =
            controls.canAskApple && !subscriber.subscriptions.isEmpty
            ? """
                <form class="row" method="post" action="\(path)/refresh">\(controls.token)\
                <button type="submit"\(controls.disabled)>Refresh from Apple</button>\
                <span class="muted">asks the App Store Server API for this user's subscriptions and applies the answer</span></form>
                """
            : ""
        return """
            <h1>\(subscriber.appUserID)</h1>
            <p class="muted">App \(appID) · as the server answers at \(DashboardFormat.instant(answer.serverTime))</p>\(refresh)
            <h2>Entitlements</h2>\(entitlements)
            <h2>Grants</h2>\(grants(controls))
            <h2>Retention offer</h2>\(retentionChoice)
            <h2>Subscriptions</h2>\(subscriptions(controls))
            <h2>Purchases</h2>\(purchases(controls))
            <h2>Evidence timeline</h2>\(timelineList)
            <h2>Personal data</h2>\(personalData(controls))
            """
    }

    /// What a retention rule chose for the user's next launch (docs/retention-rules.md).
    private var retentionChoice: HTML {
        guard let choice = retention else { return "<p class=\"muted\">No retention rule's choice holds for this user.</p>" }
        return """
            <p id="retention-choice">Rule <a href="\(DashboardRoutes.retentionRulesPath(app: appID))?edit=\(choice.ruleID)">\(choice.ruleID)</a> \
            chose \(RetentionRulesPage.chosen(choice.offeringID, choice.offer)) when \(choice.trigger.rawValue) happened to \(choice.originalTransactionID) \
            on \(DashboardFormat.instant(choice.triggeredAt)); answered until \(DashboardFormat.instant(choice.validUntil)).</p>
            """
    }

    /// The user's data-subject requests: the export as a JSON download, and the erasure, which
    /// asks for the user id typed again (it cannot be undone).
    private func personalData(_ controls: Controls) -> HTML {
        """
        <form class="row" method="get" action="\(path)/personal-data"><button type="submit"\(controls.disabled)>Export (JSON)</button>\
        <span class="muted">everything stored that names this user</span></form>
        <form class="row" method="post" action="\(path)/personal-data/erase">\(controls.token)\
        <input name="confirm" placeholder="the user id, to confirm" aria-label="The user id, to confirm" maxlength="512" required>\
        <input name="reason" placeholder="reason" aria-label="Reason (for the timeline)" maxlength="200">\
        <button type="submit"\(controls.disabled)>Erase personal data</button>\
        <span class="muted">unbinds the purchases and deletes what names this user; Apple's records and the analytics stay</span></form>
        """
    }

    private var entitlements: HTML {
        let rows = answer.subscriber.entitlements.sorted { $0.key < $1.key }
        guard !rows.isEmpty else { return "<p class=\"muted\">No entitlement.</p>" }
        return Self.table(
            ["Entitlement", "State", "Product", "Expires", "Original transaction"],
            rows.map { name, entitlement in
                [
                    "\(name)", Self.badge(entitlement.isActive), "\(entitlement.productID)",
                    "\(entitlement.expiresDate.map(DashboardFormat.instant), or: "never")", "\(entitlement.originalTransactionID)",
                ]
            })
    }

    /// The entitlements operators gave by hand, each running one with a button to end it, and a
    /// form to give one.
    private func grants(_ controls: Controls) -> HTML {
        let (token, disabled) = (controls.token, controls.disabled)
        let rows = (answer.subscriber.grants ?? []).sorted { $0.startsAt > $1.startsAt }
        let table: HTML =
            rows.isEmpty
            ? "<p class=\"muted\">No grant.</p>"
            : Self.table(
                ["Entitlement", "State", "From", "Until", "By", ""],
                rows.map { grant in
                    let state: HTML =
                        grant.isActive ? Self.badge(true)
                        : grant.revokedAt != nil ? "<span class=\"badge\">revoked</span>" : "<span class=\"badge\">ended</span>"
                    let revoked: HTML = grant.revokedAt.map {
                        "; revoked \(DashboardFormat.instant($0)) by \(grant.revokedBy ?? "?")\(grant.revokeReason.map { ": \($0)" } ?? "")"
                    } ?? ""
                    let by: HTML = "\(grant.grantedBy)\(grant.reason.map { ": \($0)" } ?? "")\(revoked)"
                    let revoke: HTML =
                        grant.isActive
                        ? "<form method=\"post\" action=\"\(path)/grants/\(grant.grantID)/revoke\">\(token)<button type=\"submit\"\(disabled)>Revoke</button></form>"
                        : ""
                    return [
                        "\(grant.entitlementID)", state, "\(DashboardFormat.instant(grant.startsAt))",
                        "\(DashboardFormat.instant(grant.revokedAt ?? grant.expiresAt))", by, revoke,
                    ]
                })
        guard !controls.entitlementIDs.isEmpty else { return table }
        let entitlements = HTML.join(controls.entitlementIDs.map { "<option>\($0)</option>" })
        let durations = HTML.join(Self.grantDurations.map { "<option value=\"\($0.value)\"\($0.value == "P1W" ? " selected" : "")>\($0.label)</option>" })
        return """
            \(table)<form class="row" method="post" action="\(path)/grants">\(token)\
            <select name="entitlementId" aria-label="Entitlement">\(entitlements)</select>\
            <select name="duration" aria-label="For">\(durations)</select>\
            <input name="reason" placeholder="reason" aria-label="Reason (for the timeline)" maxlength="200">\
            <button type="submit"\(disabled)>Grant</button></form>
            """
    }

    /// Where the page's forms post.
    private var path: String { DashboardRoutes.subscriberPath(app: appID, user: answer.subscriber.appUserID) }

    private func subscriptions(_ controls: Controls) -> HTML {
        guard !answer.subscriber.subscriptions.isEmpty else { return "<p class=\"muted\">No subscription.</p>" }
        return Self.table(
            ["Product", "Status", "Period", "Expires", "Renews", "Environment", "Original transaction"] + appAccountTokenHeader(controls),
            answer.subscriber.subscriptions.map { subscription -> [HTML] in
                let cells: [HTML] = [
                    "\(subscription.productID)", "<span class=\"badge\(subscription.status == .active ? " on" : "")\">\(subscription.status.rawValue)</span>",
                    "\(subscription.periodType.rawValue)", "\(DashboardFormat.instant(subscription.expiresDate))",
                    "\(subscription.willRenew ? "yes" : "no")\(subscription.renewalProductID.map { $0 == subscription.productID ? "" : " → \($0)" } ?? "")",
                    "\(subscription.environment)", "\(subscription.originalTransactionID)",
                ]
                return cells + appAccountTokenForm(of: subscription.originalTransactionID, controls)
            })
    }

    private func purchases(_ controls: Controls) -> HTML {
        guard !answer.subscriber.purchases.isEmpty else { return "<p class=\"muted\">No other purchase.</p>" }
        return Self.table(
            ["Product", "Purchased", "Expires", "Active", "Transaction"] + appAccountTokenHeader(controls),
            answer.subscriber.purchases.map { purchase -> [HTML] in
                let cells: [HTML] = [
                    "\(purchase.productID)", "\(DashboardFormat.instant(purchase.purchaseDate))",
                    "\(purchase.expiresDate.map(DashboardFormat.instant), or: "–")", Self.badge(purchase.isActive), "\(purchase.transactionID)",
                ]
                return cells + appAccountTokenForm(of: purchase.originalTransactionID, controls)
            })
    }

    /// The column of the app-account-token buttons, present when the app can ask Apple.
    private func appAccountTokenHeader(_ controls: Controls) -> [String] {
        controls.canAskApple ? [""] : []
    }

    /// A purchase's buttons that ask Apple: bind it to this user's app account token (for a
    /// purchase made outside the app, whose notifications name nobody until it carries the token),
    /// and read the user's original app purchase by it (for a device that never posted it).
    private func appAccountTokenForm(of originalTransactionID: String, _ controls: Controls) -> [HTML] {
        guard controls.canAskApple else { return [] }
        return [
            """
            <form method="post" action="\(path)/purchases/\(originalTransactionID)/app-account-token">\(controls.token)\
            <button type="submit"\(controls.disabled)>Set app account token</button></form>\
            <form method="post" action="\(path)/purchases/\(originalTransactionID)/app-transaction">\(controls.token)\
            <button type="submit"\(controls.disabled)>Read app purchase</button></form>
            """
        ]
    }

    private var timelineList: HTML {
        guard !timeline.entries.isEmpty else { return "<p class=\"muted\">Nothing happened to this user yet.</p>" }
        // Newest first: what support asks about is usually what just happened.
        let items = timeline.entries.reversed().map { entry -> HTML in
            var facts: [HTML] = []
            if !entry.originalTransactionIds.isEmpty { facts.append("purchases \(entry.originalTransactionIds.joined(separator: ", "))") }
            if !entry.eventIds.isEmpty { facts.append("\(entry.eventIds.count) event\(entry.eventIds.count == 1 ? "" : "s")") }
            if let previous = entry.previousOwner { facts.append("from \(previous)") }
            if let presenter = entry.presenter { facts.append("presented by \(presenter)") }
            if let by = entry.requestedBy { facts.append("\(by.action) by \(by.admin)\(by.reason.map { " (\($0))" } ?? "")") }
            if let failure = entry.failure {
                facts.append("<span class=\"down\">failed \(failure.attempts)×: \(failure.error)</span>")
            }
            if let refund = entry.refundRequest { facts += Self.facts(of: refund, kind: entry.kind) }
            if let retention = entry.retention {
                facts.append(
                    "retention \(retention.choice)\(retention.messageIdentifier.map { " \($0)" } ?? "")\(retention.offerId.map { ", offer \($0)" } ?? "")\(retention.alternateProductId.map { ", switch to \($0)" } ?? "")\(retention.rule.map { " (rule \($0))" } ?? "")")
            }
            return """
                <li><strong>\(entry.kind)</strong> <span class="muted">\(DashboardFormat.instant(entry.at))</span>\
                \(facts.isEmpty ? "" : HTML.join([" · ", HTML.join(facts, separator: " · ")]))\(evidenceBlock(entry.evidence))</li>
                """
        }
        let more: HTML =
            hiddenEntries == 0
            ? ""
            : "<p class=\"muted\">\(hiddenEntries) older entries are not shown; GET /admin/v1/subscribers/{appUserId}/timeline has them all.</p>"
        return "<ol class=\"timeline\">\(HTML.join(items))</ol>\(more)"
    }

    /// What a refund request entry says: the request, the answer sent and on what basis, or why none was, and Apple's decision.
    private static func facts(of request: RefundRequestRecord, kind: String) -> [HTML] {
        var facts: [HTML] = ["refund of transaction \(request.transactionID)"]
        switch kind {
        case AuditKind.consumptionRequested.rawValue:
            facts.append("reason \(request.reason ?? "not given"); answer due by \(DashboardFormat.instant(request.deadline))")
            if request.state == .notConfigured { facts.append("<span class=\"down\">not answered: no consumption policy</span>") }
        case AuditKind.consumptionAnswered.rawValue:
            if let answer = request.answer {
                facts.append(
                    "sent \(answer.refundPreference ?? "no preference"), \(answer.deliveryStatus), consumed \(answer.consumptionPercentage.map { String(format: "%.1f %%", Double($0) / 1000) } ?? "unknown") (\(answer.basis))")
            }
        case AuditKind.refundDecided.rawValue:
            facts.append("Apple \(request.outcome == .refunded ? "refunded" : "declined") it")
        default:
            facts.append("<span class=\"down\">\(request.state.rawValue): \(request.lastError ?? "")</span>")
        }
        return facts
    }

    private func evidenceBlock(_ stored: TimelineResponse.Evidence?) -> HTML {
        guard let stored, let shown = evidence[stored.id] else { return "" }
        let decoded: HTML =
            if let json = shown.decoded {
                "<div><div class=\"muted\">Decoded</div><pre>\(json)</pre></div>"
            } else {
                "<div><div class=\"muted\">Decoded</div><p class=\"muted\">Not JSON or JWS: the records above were read from it.</p></div>"
            }
        return """
            <details><summary>Evidence #\(stored.id): \(stored.kind), received \(DashboardFormat.instant(stored.receivedAt))\
            \(stored.presentedBy.map { " from \($0)" } ?? "")</summary>
            <div class="evidence">\(decoded)<div><div class="muted">Raw</div><pre>\(shown.raw)</pre></div></div></details>
            """
    }

    private static func badge(_ active: Bool) -> HTML {
        active ? "<span class=\"badge on\">active</span>" : "<span class=\"badge\">inactive</span>"
    }

    static func table(_ headers: [String], _ rows: [[HTML]]) -> HTML {
        let head = HTML.join(headers.map { "<th>\($0)</th>" })
        let body = HTML.join(rows.map { "<tr>\(HTML.join($0.map { "<td>\($0)</td>" }))</tr>" })
        return "<div class=\"scroll\"><table><thead><tr>\(head)</tr></thead><tbody>\(body)</tbody></table></div>"
    }
}

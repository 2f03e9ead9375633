import Hummingbird

/// What a search shows when it does not lead straight to one subscriber: nothing found (with the
/// offer to ask Apple about an order id), or the purchases of an order Apple named.
enum SearchPage {
    /// `query` matched no transaction and no user; apps in `orderApps` can ask Apple whether it
    /// is an order id (a POST: Apple's answer is stored).
    static func notFound(_ query: String, orderApps: [String], session: DashboardSessions.Session) -> DashboardPage {
        var body: HTML = "<h1>No match</h1><p class=\"notice\">No stored transaction and no app user has the id <code>\(query)</code>.</p>"
        if ActionTargets.isOrderID(query), !orderApps.isEmpty {
            let allowed = session.scope >= .support
            let forms = HTML.join(
                orderApps.map {
                    """
                    <form class="row" method="post" action="/dashboard/apps/\($0)/orders">\
                    <input type="hidden" name="csrf" value="\(session.csrfToken)"><input type="hidden" name="orderId" value="\(query)">\
                    <button type="submit"\(allowed ? "" : " disabled")>Look up order \(query) in \($0) at Apple</button></form>
                    """
                })
            let scopeNote: HTML = allowed ? "" : "<p class=\"muted\">Looking up an order needs an admin key with the support scope.</p>"
            body = "\(body)<p>If it is the order id of Apple's receipt email, Apple can say which purchase it was:</p>\(forms)\(scopeNote)"
        }
        return DashboardPage(title: "Search", body: body, session: session, status: .notFound)
    }

    /// The purchases of order `answer` when they do not belong to exactly one user.
    static func order(_ answer: OrderLookupAnswer, appID: String, session: DashboardSessions.Session) -> DashboardPage {
        let rows = answer.purchases.map { purchase -> [HTML] in
            let owner: HTML =
                if let user = purchase.appUserId {
                    "<a href=\"\(DashboardRoutes.subscriberPath(app: appID, user: user))\">\(user)</a>"
                } else {
                    "<span class=\"muted\">no user presented it yet</span>"
                }
            return ["\(purchase.originalTransactionId)", owner]
        }
        return DashboardPage(
            title: "Order \(answer.orderId)",
            body: "<h1>Order \(answer.orderId)</h1>\(SubscriberPage.table(["Original transaction", "User"], rows))", session: session)
    }
}

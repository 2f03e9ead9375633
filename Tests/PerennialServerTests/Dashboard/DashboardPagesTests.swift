import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// The dashboard's pages over a real server: a subscriber found by app user id or by a
/// transaction id, shown with its entitlements and its evidence timeline (each signed payload
/// decoded beside its raw form, the shared secret of V1 notifications redacted), everything a
/// client chose printed escaped.
@Suite struct DashboardPagesTests {
    /// An app user id as hostile as a client can make one.
    static let hostileUser = #"<script>alert("x")</script>&'"#

    @Test func aSubscriberIsFoundByUserOrTransactionAndShownWithItsDecodedEvidence() async throws {
        var world = try StoreWorld()
        let (transaction, notifications) = try world.buy("pro.monthly")
        let v1 = try #require(try notifications.first?.v1Body())
        let signed = try world.signed(transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        let encodedUser = try #require(Self.hostileUser.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: encodedUser).status == .ok)
            #expect(try await client.notifyV1(v1).status == .ok)
            let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)

            let byUser = try await dashboard.get("/dashboard/search?q=\(encodedUser)")
            #expect(byUser.status == .seeOther)
            let location = try #require(byUser.headers[.location])
            // One path segment: `/` and `%` encoded, the rest as URLs allow.
            #expect(location == "/dashboard/apps/demo/subscribers/%3Cscript%3Ealert(%22x%22)%3C%2Fscript%3E&'")
            let byTransaction = try await dashboard.get("/dashboard/search?q=\(transaction.originalTransactionID)")
            #expect(byTransaction.headers[.location] == location)
            // A browser sends the search box's spaces as `+`: an id pasted with spaces around it is found.
            let pasted = try await dashboard.get("/dashboard/search?q=+\(transaction.originalTransactionID)+")
            #expect(pasted.headers[.location] == location, "\(pasted.status) \(pasted.text)")

            let page = try await dashboard.get(location)
            #expect(page.status == .ok)
            let html = page.text
            #expect(!html.contains("<script"))
            #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            // State and entitlements.
            #expect(html.contains("<td>pro</td><td><span class=\"badge on\">active</span></td><td>pro.monthly</td>"))
            // The timeline entry, its raw JWS and the payload decoded beside it.
            #expect(html.contains("Evidence #"))
            #expect(html.contains(signed))
            #expect(html.contains("&quot;originalTransactionId&quot; : &quot;\(transaction.originalTransactionID)&quot;"))
            #expect(html.contains("&quot;productId&quot; : &quot;pro.monthly&quot;"))
            // The V1 notification is shown too, without the shared secret it carries.
            #expect(html.contains("notificationV1"))
            #expect(html.contains("&quot;password&quot; : &quot;(redacted)&quot;"))
            #expect(!html.contains(StoreWorld.sharedSecret))
        }
    }

    /// Support gives a subscriber an entitlement from the page and takes it back, each naming the
    /// admin key in the timeline; a read-only key sees the grants but its buttons are disabled and
    /// its posts refused; a form without the session's token changes nothing.
    @Test func aGrantIsGivenAndRevokedFromTheSubscriberPage() async throws {
        let viewer = AdminKeyConfiguration(name: "viewer", key: "sk_viewer", scope: .readOnly)
        let server = try await ServerHarness(adminKeys: [viewer])
        try await server.test { client in
            #expect(try await client.send(.get, "/v1/subscribers/alice/app-account-token").status == .ok)
            let path = "/dashboard/apps/demo/subscribers/alice"
            let admin = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let empty = try await admin.get(path).text
            #expect(empty.contains("<h2>Grants</h2><p class=\"muted\">No grant.</p>"))
            #expect(empty.contains("<option>pro</option>") && empty.contains("<option value=\"P1W\" selected>1 week</option>"))

            let forged = try await admin.post("\(path)/grants", form: ["entitlementId": "pro", "duration": "P1W"])
            #expect(forged.status == .forbidden)
            #expect(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).allSatisfy { $0.entry.kind != .entitlementGranted })

            let given = try await admin.post(
                "\(path)/grants", form: ["csrf": admin.csrfToken, "entitlementId": "pro", "duration": "P1M", "reason": "outage <b>3rd</b>"])
            #expect(given.status == .seeOther && given.headers[.location] == path, "\(given.status) \(given.text)")
            let granted = try await admin.get(path).text
            #expect(granted.contains("<td>pro</td><td><span class=\"badge on\">active</span></td>"))
            #expect(granted.contains("grant by admin (outage &lt;b&gt;3rd&lt;/b&gt;)"))
            let grantID = try #require(try await server.storage.grants(of: "alice", appBundleID: StoreWorld.bundleID).first?.id)
            #expect(granted.contains("action=\"\(path)/grants/\(grantID)/revoke\""))

            let refused = try await admin.post("\(path)/grants", form: ["csrf": admin.csrfToken, "entitlementId": "gold", "duration": "P1W"])
            #expect(refused.status == .unprocessableContent && refused.text.contains("gold"))

            let reader = try await DashboardClient.signIn(client, key: "sk_viewer")
            let readOnly = try await reader.get(path).text
            #expect(readOnly.contains("<button type=\"submit\" disabled title=\"needs the support scope\">Revoke</button>"))
            #expect(try await reader.post("\(path)/grants/\(grantID)/revoke", form: ["csrf": reader.csrfToken]).status == .forbidden)

            let revoked = try await admin.post("\(path)/grants/\(grantID)/revoke", form: ["csrf": admin.csrfToken])
            #expect(revoked.status == .seeOther)
            let after = try await admin.get(path).text
            #expect(after.contains("<span class=\"badge\">revoked</span>") && !after.contains("/revoke\""))
            #expect(after.contains("revokeGrant by admin (from the dashboard)"))
            let again = try await admin.post("\(path)/grants/\(grantID)/revoke", form: ["csrf": admin.csrfToken])
            #expect(again.status == .notFound)
        }
    }

    @Test func aSearchWithoutMatchSaysSoAndOffersNoOrderLookupWithoutServerAPI() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let missing = try await dashboard.get("/dashboard/search?q=MK5TTTVWJH")
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("No stored transaction and no app user has the id <code>MK5TTTVWJH</code>"))
            #expect(!missing.text.contains("/orders"))
            let unknownApp = try await dashboard.get("/dashboard/apps/nope/subscribers/alice")
            #expect(unknownApp.status == .notFound)
            #expect(unknownApp.text.contains("no app nope is configured"))
        }
    }

    @Test func theOverviewDrawsTilesChartsAndCohortsWithoutScript() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let page = try await dashboard.get("/dashboard?range=90d&environment=Sandbox")
            #expect(page.status == .ok)
            let html = page.text
            for tile in [
                "MRR", "ARR", "Net MRR movement", "Active subscriptions", "Active trials", "Trial conversion", "Churn rate", "Scheduled churn",
                "Billing issues", "Revenue at risk", "Revenue", "Refunds", "Net revenue",
            ] {
                #expect(html.contains("<div class=\"label\">\(tile)</div>"), "tile \(tile)")
            }
            #expect(html.components(separatedBy: "<svg ").count - 1 == 7)
            #expect(!html.contains("<script"))
            #expect(html.contains("<option value=\"90d\" selected>"))
            #expect(html.contains("<option selected>Sandbox</option>"))
            #expect(html.contains("No refund requests from Apple yet."))
            // Another spelling would show an empty report under a menu saying Production.
            let misspelt = try await dashboard.get("/dashboard?environment=sandbox")
            #expect(misspelt.status == .badRequest)
            #expect(misspelt.text.contains("environment must be Production or Sandbox, not sandbox"))
        }
    }

    @Test func theOverviewListsRefundRequestsWithWhatWasAnsweredAndWhatAppleDecided() async throws {
        let server = try await ServerHarness()
        let asked = server.clock.now.addingTimeInterval(-3600)
        func request(_ id: String, user: String, state: RefundRequestRecord.State) -> RefundRequestRecord {
            RefundRequestRecord(
                id: id, appBundleID: StoreWorld.bundleID, environment: .sandbox, transactionID: "10\(id.count)", originalTransactionID: "1000",
                productID: "pro.monthly", purchaseDate: asked.addingTimeInterval(-86_400), expiresDate: nil, appUserID: AppUserID(rawValue: user),
                reason: "UNINTENDED_PURCHASE", requestedAt: asked, state: state)
        }
        var answered = request("n-answered", user: "alice", state: .answered)
        answered.answer = .init(
            customerConsented: true, consumptionPercentage: 80_000, deliveryStatus: "DELIVERED", refundPreference: "DECLINE", sampleContentProvided: false,
            basis: "reported")
        answered.outcome = .declined
        for record in [answered, request("n-missed", user: "<b>mallory</b>", state: .missed)] {
            #expect(try await server.storage.addConsumptionRequest(record, audit: nil))
        }
        try await server.test { client in
            let dashboard = try await DashboardClient.signIn(client, key: ServerHarness.adminKey)
            let html = try await dashboard.get("/dashboard?environment=Sandbox").text
            #expect(html.contains("<h2>Refund requests</h2>"))
            #expect(html.contains("2 in this range: 1 answered, 1 not answered; Apple refunded 0, declined 1, 1 undecided (0.0% of its decisions refunds)."), "\(html)")
            let figures = try await client.send(.get, "/admin/v1/apps/demo/metrics?environment=Sandbox", key: ServerHarness.adminKey)
            let summary = (try JSONSerialization.jsonObject(with: figures.data) as? [String: Any])?["refundRequests"] as? [String: Any]
            #expect(summary?["requested"] as? Int == 2 && summary?["answered"] as? Int == 1 && summary?["unanswered"] as? Int == 1)
            #expect(summary?["refunded"] as? Int == 0 && summary?["declined"] as? Int == 1 && summary?["undecided"] as? Int == 1)
            #expect(summary?["refundRate"] as? Double == 0)
            #expect(html.contains("answered: DECLINE</td><td>declined</td>"))
            #expect(html.contains("<span class=\"down\">missed</span></td><td><span class=\"muted\">waiting</span>"))
            #expect(html.contains("href=\"/dashboard/apps/demo/subscribers/alice\""))
            #expect(html.contains("&lt;b&gt;mallory&lt;/b&gt;") && !html.contains("<b>mallory</b>"), "user ids are escaped")
            // Production has none.
            #expect(try await dashboard.get("/dashboard?environment=Production").text.contains("No refund requests from Apple yet."))
        }
    }
}

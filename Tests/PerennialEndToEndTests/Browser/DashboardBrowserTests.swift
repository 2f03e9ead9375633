import Foundation
import PerennialLiveHarness
import Testing

/// The dashboard in a real browser (Debian's headless `chromium`) against a live server and App
/// Store simulator, used as an operator uses it: a page asked for without a session leads to
/// sign-in; a wrong key gets a clear error; the right one opens the overview; the search box
/// finds a subscriber; the subscriber's timeline opens on the evidence, decoded beside its raw
/// form; a refresh from Apple comes back attributed; an entitlement is granted and revoked; a
/// user's personal data is erased once the user id is typed again; and the pages fit a phone's width. (``DashboardScreenshots`` takes the README's
/// pictures.)
@Suite("End to end: the dashboard in Chromium", .enabled(if: HeadlessChromium.executable != nil, "chromium is not installed: apt-get install chromium"))
struct DashboardBrowserTests {
    @Test func anOperatorSignsInSearchesASubscriberAndOpensTheTimeline() async throws {
        try await HeadlessChromium.withLiveSystem(width: 1280, height: 900, Self.drive)
    }

    static func drive(_ browser: HeadlessChromium, system: LiveSystem) async throws {
        let http = LiveHTTP(system: system)
        for user in ["alice", "bob"] {
            try await http.account(user)
            let bought = try await http.buy(LiveCatalog.standardMonthly, account: user)
            let jws = try #require(bought.json["signedTransaction"] as? String)
            #expect(try await http.postTransaction(jws, user: user).status == 200)
        }
        let dashboard = system.serverURL.appendingPathComponent("dashboard")

        // No session: the overview sends the browser to sign in.
        try await browser.open(dashboard) { $0.hasPrefix("/dashboard/sign-in") }
        #expect(try await browser.location() == "/dashboard/sign-in?next=/dashboard")

        // A wrong key: the form again, with the error said plainly.
        try await browser.type("sk_not_a_key", into: "#key")
        try await browser.navigating({ $0.hasPrefix("/dashboard/sign-in") }) { try await browser.pressEnter() }
        #expect(try await browser.visibleText().contains("That is not an admin key of this server."))

        // The right key: the overview, with a session cookie no script can read.
        try await browser.type(system.adminKey, into: "#key")
        try await browser.navigating({ $0 == "/dashboard" }) { try await browser.pressEnter() }
        let overview = try await browser.visibleText()
        #expect(overview.contains("Overview") && overview.contains("Active subscriptions") && overview.contains("Cohorts"))
        #expect(try await browser.evaluate("document.querySelectorAll('svg').length") as? Int == 7)
        #expect(overview.contains("Net MRR movement") && overview.contains("Scheduled churn") && overview.contains("Revenue at risk"))

        // The breakdown selector splits the range: both users bought the standard monthly plan.
        _ = try await browser.evaluate("document.querySelector('select[name=breakdown]').value = 'product'")
        try await browser.navigating({ $0.contains("breakdown=product") }) { try await browser.click("form.row button") }
        let byProduct = try await browser.visibleText()
        #expect(byProduct.contains("By product") && byProduct.contains(LiveCatalog.standardMonthly), "\(byProduct)")
        // Its row: both active now (the sandbox's short periods included), both new paid.
        let row = try await browser.evaluate("[...document.querySelectorAll('.scroll table tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
        let cells = try #require((row as? [[String]])?.first { $0.first == LiveCatalog.standardMonthly })
        #expect(cells[1] == "2" && cells[3] == "2", "\(cells)")
        // The filters beside it: the product kept, then a storefront nobody bought in, then none.
        let active = "[...document.querySelectorAll('.tile')].find(t => t.querySelector('.label').textContent == 'Active subscriptions').querySelector('.value').textContent"
        _ = try await browser.evaluate("document.querySelector('select[name=product]').value = '\(LiveCatalog.standardMonthly)'")
        _ = try await browser.evaluate("document.querySelector('input[name=storefront]').value = 'ZZZ'")
        try await browser.navigating({ $0.contains("storefront=ZZZ") }) { try await browser.click("form.row button") }
        #expect(try await browser.evaluate(active) as? String == "0")
        #expect(try await browser.evaluate("document.querySelector('select[name=product]').value") as? String == LiveCatalog.standardMonthly)
        #expect(try await browser.evaluate("document.querySelector('select[name=breakdown]').value") as? String == "product")
        _ = try await browser.evaluate("document.querySelector('input[name=storefront]').value = ''")
        try await browser.navigating({ $0.contains("storefront=&") }) { try await browser.click("form.row button") }
        #expect(try await browser.evaluate(active) as? String == "2")
        #expect(try await browser.evaluate("document.cookie") as? String == "")
        let cookie = try #require(try await browser.cookies(for: dashboard).first { $0["name"] as? String == "perennial_session" })
        #expect(cookie["httpOnly"] as? Bool == true)
        #expect(cookie["sameSite"] as? String == "Strict")

        // The search box finds a subscriber by app user id.
        try await browser.type("alice", into: "input[name=q]")
        try await browser.navigating({ $0 == "/dashboard/apps/\(system.appID)/subscribers/alice" }) { try await browser.pressEnter() }
        let subscriber = try await browser.visibleText()
        #expect(subscriber.contains("Entitlements") && subscriber.contains("standard") && subscriber.contains("active"))

        // The timeline: opening a piece of evidence shows it decoded beside its raw form.
        #expect(try await browser.evaluate("document.querySelector('.timeline details').open") as? Bool == false)
        try await browser.click(".timeline details summary")
        #expect(try await browser.evaluate("document.querySelector('.timeline details').open") as? Bool == true)
        let timeline = try await browser.visibleText()
        #expect(timeline.contains("Decoded") && timeline.contains("Raw"))
        #expect(timeline.contains("\"productId\" : \"\(LiveCatalog.standardMonthly)\""))

        // Refreshing from Apple (a form with the session's CSRF token) comes back to the page,
        // whose timeline now names the admin key that asked.
        let alicePath = "/dashboard/apps/\(system.appID)/subscribers/alice"
        #expect(!timeline.contains("refresh by admin"))
        try await browser.navigating({ $0 == alicePath }) {
            try await browser.click("form[action$='/refresh'] button")
        }
        #expect(try await browser.visibleText().contains("refresh by admin (from the dashboard)"))

        // Support gives Alice the premium entitlement for a month, then takes it back.
        #expect(try await browser.visibleText().contains("No grant."))
        _ = try await browser.evaluate("document.querySelector('select[name=entitlementId]').value = 'premium'")
        _ = try await browser.evaluate("document.querySelector('select[name=duration]').value = 'P1M'")
        try await browser.type("outage on the 3rd", into: "input[name=reason]")
        try await browser.navigating({ $0 == alicePath }) { try await browser.click("form[action$='/grants'] button") }
        let granted = try await browser.visibleText()
        #expect(granted.contains("grant by admin (outage on the 3rd)"))
        #expect(try await browser.evaluate("document.querySelectorAll('form[action$=\"/revoke\"]').length") as? Int == 1)
        try await browser.navigating({ $0 == alicePath }) { try await browser.click("form[action$='/revoke'] button") }
        let revoked = try await browser.visibleText()
        #expect(revoked.contains("revokeGrant by admin (from the dashboard)") && revoked.contains("revoked"))
        #expect(try await browser.evaluate("document.querySelectorAll('form[action$=\"/revoke\"]').length") as? Int == 0)

        // Bob asks to be forgotten: his export downloads from his page; a mistyped confirmation
        // erases nothing; the right one erases him, and his page then shows nobody's purchase.
        let bobPath = "/dashboard/apps/\(system.appID)/subscribers/bob"
        try await browser.open(system.serverURL.appendingPathComponent(bobPath)) { $0 == bobPath }
        #expect(try await browser.visibleText().contains("Personal data"))
        try await browser.type("bobby", into: "input[name=confirm]")
        try await browser.navigating({ $0 == "\(bobPath)/personal-data/erase" }) { try await browser.click("form[action$='/erase'] button") }
        #expect(try await browser.visibleText().contains("nothing was erased"))
        try await browser.open(system.serverURL.appendingPathComponent(bobPath)) { $0 == bobPath }
        try await browser.type("bob", into: "input[name=confirm]")
        try await browser.type("ticket 12", into: "form[action$='/erase'] input[name=reason]")
        try await browser.navigating({ $0 == "\(bobPath)/personal-data/erase" }) { try await browser.click("form[action$='/erase'] button") }
        #expect(try await browser.visibleText().contains("Personal data erased"))
        try await browser.open(system.serverURL.appendingPathComponent(bobPath)) { $0 == bobPath }
        let forgotten = try await browser.visibleText()
        #expect(forgotten.contains("No entitlement.") && !forgotten.contains("evidenceApplied"))

        // A phone: every page fits the screen's width (tables scroll inside themselves).
        try await browser.resize(width: 390, height: 844)
        for path in ["/dashboard/apps/\(system.appID)/subscribers/alice", "/dashboard"] {
            try await browser.open(system.serverURL.appendingPathComponent(path)) { $0 == path }
            let overflow = try await browser.evaluate("document.documentElement.scrollWidth - window.innerWidth") as? Int
            #expect(overflow == 0, "\(path) is wider than a phone by \(overflow ?? -1) px")
        }
    }
}

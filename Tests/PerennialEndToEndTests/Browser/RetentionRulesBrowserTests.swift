import Foundation
import NIOHTTP1
import PerennialLiveHarness
import Testing

/// Retention rules defined on the dashboard in a real browser (headless `chromium`) as an operator
/// defines them: the overview links to the app's rules, the form adds one through the same action
/// as the admin API (and refuses what the API refuses, storing nothing), the list and the admin API
/// read it back, and editing it unticked disables it. With `PERENNIAL_SCREENSHOTS` set, the page is
/// saved as `dashboard-retention-rules.png` there (docs/retention-rules.md).
@Suite(
    "End to end: retention rules on the dashboard in Chromium",
    .enabled(if: HeadlessChromium.executable != nil, "chromium is not installed: apt-get install chromium"))
struct RetentionRulesBrowserTests {
    @Test func aRuleAddedOnTheDashboardIsStoredAndCanBeDisabled() async throws {
        try await HeadlessChromium.withLiveSystem(width: 1280, height: 900, Self.drive)
    }

    static func drive(_ browser: HeadlessChromium, system: LiveSystem) async throws {
        let admin = "\(system.serverURL.absoluteString)/admin/v1/apps/\(system.appID)"
        let offering = #"{"id": "stay", "products": ["\#(LiveCatalog.standardMonthly)", "\#(LiveCatalog.premiumMonthly)"]}"#
        #expect(try await LiveHTTP.call(.POST, try #require(URL(string: "\(admin)/offerings")), bearer: system.adminKey, body: offering).status == 201)

        try await browser.open(system.serverURL.appendingPathComponent("dashboard")) { $0.hasPrefix("/dashboard/sign-in") }
        try await browser.type(system.adminKey, into: "#key")
        try await browser.navigating({ $0 == "/dashboard" }) { try await browser.pressEnter() }
        let path = "/dashboard/apps/\(system.appID)/retention-rules"
        try await browser.navigating({ $0 == path }) { try await browser.click("a[href='\(path)']") }
        #expect(try await browser.visibleText().contains("No retention rule yet"))

        /// Sets a field the way a user's choice in a list or a corrected number leaves it.
        func set(_ selector: String, to value: String) async throws {
            _ = try await browser.evaluate("document.querySelector('\(selector)').value = '\(value)'")
        }
        func fill(days: String) async throws {
            try await browser.type("keep-premium", into: "#rule-id")
            try await browser.type("Keep premium subscribers", into: "#rule-name")
            try await set("#rule-trigger", to: "autoRenewOff")
            try await browser.type(LiveCatalog.premiumMonthly, into: "#rule-products")
            try await set("#rule-offering", to: "stay")
            try await set("#rule-offer-type", to: "promotional")
            try await browser.type(LiveCatalog.premiumMonthly, into: "#rule-offer-product")
            try await browser.type("stay50", into: "#rule-offer-id")
            try await set("#rule-days", to: days)
        }

        // A validity longer than the server allows: refused with the limit, nothing stored.
        try await fill(days: "400")
        try await browser.navigating({ $0 == path }) { try await browser.click("#rule-save") }
        let refusal = try await browser.visibleText()
        #expect(refusal.contains("validForDays is 1–365 (limits.maxRetentionValidDays), got 400"), "\(refusal)")
        let rules = try #require(URL(string: "\(admin)/retention-rules"))
        #expect((try await LiveHTTP.call(.GET, rules, bearer: system.adminKey).json["rules"] as? [Any])?.isEmpty == true)

        try await browser.open(system.serverURL.appendingPathComponent(path)) { $0 == path }
        try await fill(days: "7")
        try await browser.navigating({ $0 == path }) { try await browser.click("#rule-save") }
        let cells = "Array.from(document.querySelectorAll('tbody tr:first-child td')).map(td => td.innerText.trim()).join('|')"
        let row = try await browser.evaluate(cells) as? String ?? ""
        #expect(
            row == "keep-premium Keep premium subscribers|autoRenewOff|\(LiveCatalog.premiumMonthly)|offering stay and promotional offer stay50 on "
                + "\(LiveCatalog.premiumMonthly)|0|7 days|enabled|Remove", "\(row)")

        // Read back through the admin API.
        let stored = try #require((try await LiveHTTP.call(.GET, rules, bearer: system.adminKey).json["rules"] as? [[String: Any]])?.first)
        #expect(stored["id"] as? String == "keep-premium" && stored["trigger"] as? String == "autoRenewOff" && stored["offeringId"] as? String == "stay")
        #expect((stored["offer"] as? [String: Any])?["offerId"] as? String == "stay50" && stored["enabled"] as? Bool == true)
        if let directory = ProcessInfo.processInfo.environment["PERENNIAL_SCREENSHOTS"] {
            try await browser.screenshot().write(to: URL(fileURLWithPath: directory).appendingPathComponent("dashboard-retention-rules.png"))
        }

        // Edited with "enabled" unticked: disabled.
        try await browser.navigating({ $0.hasPrefix(path) }) { try await browser.click("a[href='\(path)?edit=keep-premium']") }
        #expect(try await browser.evaluate("document.querySelector('#rule-offer-id').value") as? String == "stay50")
        try await browser.click("#rule-enabled")
        try await browser.navigating({ $0 == path }) { try await browser.click("#rule-save") }
        let disabled = try #require((try await LiveHTTP.call(.GET, rules, bearer: system.adminKey).json["rules"] as? [[String: Any]])?.first)
        #expect(disabled["enabled"] as? Bool == false && disabled["validForDays"] as? Int == 7)
        #expect(try await browser.evaluate(cells) as? String ?? "" == row.replacingOccurrences(of: "|enabled|", with: "|disabled|"))
    }
}

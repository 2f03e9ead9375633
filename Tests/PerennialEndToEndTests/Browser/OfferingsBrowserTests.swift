import Foundation
import NIOHTTP1
import PerennialLiveHarness
import Testing

/// Offerings defined on the dashboard in a real browser (headless `chromium`) as an operator
/// defines them: the overview links to the app's offerings, the form adds one through the same
/// action as the admin API (and refuses what the API refuses, storing nothing), the list shows it,
/// and an app asking for its offerings gets it. With `PERENNIAL_SCREENSHOTS` set, the page is
/// saved as `dashboard-offerings.png` there (docs/offerings.md).
@Suite("End to end: offerings on the dashboard in Chromium", .enabled(if: HeadlessChromium.executable != nil, "chromium is not installed: apt-get install chromium"))
struct OfferingsBrowserTests {
    @Test func anOfferingAddedOnTheDashboardReachesTheApp() async throws {
        try await HeadlessChromium.withLiveSystem(width: 1280, height: 900, Self.drive)
    }

    static func drive(_ browser: HeadlessChromium, system: LiveSystem) async throws {
        let dashboard = system.serverURL.appendingPathComponent("dashboard")
        try await browser.open(dashboard) { $0.hasPrefix("/dashboard/sign-in") }
        try await browser.type(system.adminKey, into: "#key")
        try await browser.navigating({ $0 == "/dashboard" }) { try await browser.pressEnter() }
        let path = "/dashboard/apps/\(system.appID)/offerings"
        try await browser.navigating({ $0 == path }) { try await browser.click("a[href='\(path)']") }
        #expect(try await browser.visibleText().contains("No offering yet"))

        // A product the catalog does not have: refused with its name, nothing stored.
        try await browser.type("broken", into: "#offering-id")
        try await browser.type("\(LiveCatalog.premiumYearly), com.example.perennial.gold", into: "#offering-products")
        try await browser.navigating({ $0 == path }) { try await browser.click("#offering-save") }
        let refusal = try await browser.visibleText()
        #expect(refusal.contains("not products of app \(system.appID)'s catalog: com.example.perennial.gold"), "\(refusal)")
        let admin = try #require(URL(string: "\(system.serverURL.absoluteString)/admin/v1/apps/\(system.appID)/offerings"))
        #expect((try await LiveHTTP.call(.GET, admin, bearer: system.adminKey).json["offerings"] as? [Any])?.isEmpty == true)

        try await browser.open(system.serverURL.appendingPathComponent(path)) { $0 == path }
        try await browser.type("winter-sale", into: "#offering-id")
        try await browser.type("\(LiveCatalog.premiumYearly), \(LiveCatalog.premiumMonthly)", into: "#offering-products")
        try await browser.type("usa, can", into: "#offering-storefronts")
        try await browser.type(#"{"en": {"title": "Winter sale", "highlight": "yearly"}, "de": {"title": "Winterangebot"}}"#, into: "#offering-metadata")
        try await browser.navigating({ $0 == path }) { try await browser.click("#offering-save") }

        let cells = "Array.from(document.querySelectorAll('tbody tr:first-child td')).map(td => td.innerText.trim()).join('|')"
        let row = try await browser.evaluate(cells) as? String ?? ""
        #expect(row == "winter-sale|\(LiveCatalog.premiumYearly), \(LiveCatalog.premiumMonthly)|0|CAN, USA|de, en|Remove", "\(row)")

        // The app in the United States gets it; one elsewhere does not.
        let offerings = "\(system.serverURL.absoluteString)/v1/subscribers/someone/offerings"
        let american = try await LiveHTTP.call(.GET, try #require(URL(string: "\(offerings)?storefront=USA")), bearer: system.publicKey)
        #expect((american.json["current"] as? [String: Any])?["id"] as? String == "winter-sale", "\(american.text)")
        let french = try await LiveHTTP.call(.GET, try #require(URL(string: "\(offerings)?storefront=FRA")), bearer: system.publicKey)
        #expect(french.json["current"] is NSNull, "\(french.text)")

        // Edited: the form shows what is stored.
        try await browser.navigating({ $0.hasPrefix(path) }) { try await browser.click("a[href='\(path)?edit=winter-sale']") }
        let metadata = try await browser.evaluate("document.querySelector('#offering-metadata').value") as? String ?? ""
        #expect(metadata.contains(#""highlight" : "yearly""#), "\(metadata)")
        if let directory = ProcessInfo.processInfo.environment["PERENNIAL_SCREENSHOTS"] {
            try await browser.screenshot().write(to: URL(fileURLWithPath: directory).appendingPathComponent("dashboard-offerings.png"))
        }
    }
}

import Foundation
import NIOHTTP1
import PerennialLiveHarness
import Testing

/// An experiment run from the dashboard in a real browser (headless `chromium`): the offerings page
/// links to the experiments, the form adds a draft through the same action as the admin API (and
/// refuses what it refuses, storing nothing), the start button starts it, apps get their variants,
/// and the results page shows each variant's exposures and purchases with their uncertainty; a
/// roll-out button makes the winner's offering the default. With `PERENNIAL_SCREENSHOTS` set, the
/// results page is saved as `dashboard-experiment.png` there (docs/experiments.md).
@Suite("End to end: experiments on the dashboard in Chromium", .enabled(if: HeadlessChromium.executable != nil, "chromium is not installed: apt-get install chromium"))
struct ExperimentsBrowserTests {
    @Test func anExperimentRunFromTheDashboardCountsTheApps() async throws {
        try await HeadlessChromium.withLiveSystem(width: 1280, height: 900, Self.drive)
    }

    static func drive(_ browser: HeadlessChromium, system: LiveSystem) async throws {
        let http = LiveHTTP(system: system)
        let admin = "\(system.serverURL.absoluteString)/admin/v1/apps/\(system.appID)"
        for body in [
            #"{"id": "default", "isDefault": true, "products": ["\#(LiveCatalog.premiumMonthly)"]}"#,
            #"{"id": "yearly-first", "products": ["\#(LiveCatalog.premiumYearly)", "\#(LiveCatalog.premiumMonthly)"]}"#,
        ] {
            #expect(try await LiveHTTP.call(.POST, try #require(URL(string: "\(admin)/offerings")), bearer: system.adminKey, body: body).status == 201)
        }
        let dashboard = system.serverURL.appendingPathComponent("dashboard")
        try await browser.open(dashboard) { $0.hasPrefix("/dashboard/sign-in") }
        try await browser.type(system.adminKey, into: "#key")
        try await browser.navigating({ $0 == "/dashboard" }) { try await browser.pressEnter() }
        let offerings = "/dashboard/apps/\(system.appID)/offerings"
        let path = "/dashboard/apps/\(system.appID)/experiments"
        try await browser.open(system.serverURL.appendingPathComponent(offerings)) { $0 == offerings }
        try await browser.navigating({ $0 == path }) { try await browser.click("a[href='\(path)']") }
        #expect(try await browser.visibleText().contains("No experiment yet"))

        // Weights that do not sum to 100: refused, nothing stored.
        try await browser.type("yearly-first-test", into: "#experiment-id")
        try await browser.type("Yearly first", into: "#experiment-name")
        try await browser.type("a default 50, b yearly-first 40", into: "#experiment-variants")
        try await browser.navigating({ $0 == path }) { try await browser.click("#experiment-add") }
        let refusal = try await browser.visibleText()
        #expect(refusal.contains("sum of 90"), "\(refusal)")
        #expect((try await LiveHTTP.call(.GET, try #require(URL(string: "\(admin)/experiments")), bearer: system.adminKey).json["experiments"] as? [Any])?.isEmpty == true)

        try await browser.open(system.serverURL.appendingPathComponent(path)) { $0 == path }
        try await browser.type("yearly-first-test", into: "#experiment-id")
        try await browser.type("Yearly first", into: "#experiment-name")
        try await browser.type("a default 50, b yearly-first 50", into: "#experiment-variants")
        try await browser.navigating({ $0 == path }) { try await browser.click("#experiment-add") }
        let results = "\(path)/yearly-first-test"
        try await browser.navigating({ $0 == results }) { try await browser.click("#experiment-start-yearly-first-test") }

        // Apps get their variants, report the paywall, and some buy.
        var variants: [String: Int] = [:]
        for index in 0..<8 {
            let user = "shopper-\(index)"
            let answer = try await http.server(.GET, "v1/subscribers/\(user)/offerings")
            let variant = try #require((answer.json["experiment"] as? [String: Any])?["variant"] as? String, "\(answer.text)")
            variants[variant, default: 0] += 1
            #expect(try await http.server(.POST, "v1/subscribers/\(user)/experiments/yearly-first-test/exposures").status == 200)
            if index % 3 == 0 {
                try await http.account(user)
                let product = variant == "a" ? LiveCatalog.premiumMonthly : LiveCatalog.premiumYearly
                let jws = try #require(try await http.buy(product, account: user).json["signedTransaction"] as? String)
                #expect(try await http.postTransaction(jws, user: user).status == 200)
            }
        }

        try await browser.open(system.serverURL.appendingPathComponent(results)) { $0 == results }
        let rows = "Array.from(document.querySelectorAll('tbody tr')).map(tr => Array.from(tr.querySelectorAll('td')).slice(0, 5).map(td => td.innerText.trim()).join('|'))"
        let cells = try await browser.evaluate(rows) as? [String] ?? []
        let bought = (0..<8).filter { $0 % 3 == 0 }
        #expect(cells.count == 2, "\(cells)")
        let exposed = cells.compactMap { Int($0.split(separator: "|").dropFirst(2).first ?? "") }
        #expect(exposed.reduce(0, +) == 8 && Set(exposed) == Set(variants.values), "\(cells)")
        let converted = cells.compactMap { Int($0.split(separator: "|").dropFirst(4).first ?? "") }
        #expect(converted.reduce(0, +) == bought.count, "\(cells)")
        #expect(try await browser.visibleText().contains("Beta(1 + conversions"))
        if let directory = ProcessInfo.processInfo.environment["PERENNIAL_SCREENSHOTS"] {
            try await browser.screenshot().write(to: URL(fileURLWithPath: directory).appendingPathComponent("dashboard-experiment.png"))
        }

        // Roll out b: its offering becomes the app's default.
        try await browser.navigating({ $0 == results }) { try await browser.click("form[action='\(results)/rollout'] input[value='b'] + button") }
        let stored = try await LiveHTTP.call(.GET, try #require(URL(string: "\(admin)/offerings/yearly-first")), bearer: system.adminKey)
        #expect(stored.json["isDefault"] as? Bool == true, "\(stored.text)")
    }
}

import Foundation
import NIOHTTP1
import PerennialLiveHarness
import Testing

/// An import started through the admin API, watched on the dashboard in a real browser (headless
/// `chromium`) as an operator watches it: the overview links to the app's imports, the list shows
/// the import the server's job runs, with its figures (format, state, rows settled of all, failed
/// rows, started and finished) moving until it ends, and its report names the lines not
/// imported. With `PERENNIAL_SCREENSHOTS` set, the list is saved as `dashboard-imports.png` there
/// (docs/import.md shows it).
@Suite("End to end: imports on the dashboard in Chromium", .enabled(if: HeadlessChromium.executable != nil, "chromium is not installed: apt-get install chromium"))
struct ImportsBrowserTests {
    @Test func anImportStartedThroughTheAPIShowsItsProgressOnTheDashboard() async throws {
        try await HeadlessChromium.withLiveSystem(width: 1280, height: 720, Self.drive)
    }

    static func drive(_ browser: HeadlessChromium, system: LiveSystem) async throws {
        // Three customers bought on the App Store while another backend served the app: Apple
        // knows their purchases, the app never posted them to Perennial.
        let http = LiveHTTP(system: system)
        var rows = ["app_user_id,transaction_id"]
        for index in 1...3 {
            try await http.account("buyer-\(index)")
            let bought = try await http.buy(LiveCatalog.standardMonthly, account: "buyer-\(index)")
            rows.append("customer-\(index),\(try #require(bought.json["transactionId"] as? String))")
        }
        rows += ["ghost,2000000999999999", "broken,"]
        let upload = try #require(URL(string: "\(system.serverURL.absoluteString)/admin/v1/apps/\(system.appID)/imports?format=transactions"))
        let started = try await LiveHTTP.call(.POST, upload, bearer: system.adminKey, body: rows.joined(separator: "\n"))
        #expect(started.status == 202, "\(started.text)")
        let id = try #require(started.json["id"] as? String)

        // Signed in, the operator follows the overview's link to the app's imports.
        let dashboard = system.serverURL.appendingPathComponent("dashboard")
        try await browser.open(dashboard) { $0.hasPrefix("/dashboard/sign-in") }
        try await browser.type(system.adminKey, into: "#key")
        try await browser.navigating({ $0 == "/dashboard" }) { try await browser.pressEnter() }
        let importsPath = "/dashboard/apps/\(system.appID)/imports"
        try await browser.navigating({ $0 == importsPath }) { try await browser.click("a[href='\(importsPath)']") }

        // The server's import job runs it (paced as in production); the page follows it to its end.
        let cells = "Array.from(document.querySelectorAll('tbody tr:first-child td')).map(td => td.innerText.trim()).join('|')"
        var figures = ""
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            try await browser.open(system.serverURL.appendingPathComponent(importsPath)) { $0 == importsPath }
            figures = try await browser.evaluate(cells) as? String ?? ""
            if figures.contains("|finished|") { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        let columns = figures.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        #expect(columns.count == 7, "\(figures)")
        #expect(Array(columns.prefix(5)) == [id, "transactions", "finished", "5/5", "2"], "\(figures)")
        #expect(columns.count == 7 && columns[5].hasSuffix(" UTC") && columns[6].hasSuffix(" UTC"), "\(figures)")
        if let directory = ProcessInfo.processInfo.environment["PERENNIAL_SCREENSHOTS"] {
            try await browser.screenshot().write(to: URL(fileURLWithPath: directory).appendingPathComponent("dashboard-imports.png"))
        }

        // Its report: the lines not imported, each with its reason.
        let importPath = "\(importsPath)/\(id)"
        try await browser.navigating({ $0 == importPath }) { try await browser.click("a[href='\(importPath)']") }
        let report = try await browser.visibleText()
        #expect(report.contains("5/5 rows (100%), 2 failed"), "\(report)")
        let lines = try await browser.evaluate(
            "Array.from(document.querySelectorAll('tbody tr')).slice(1).map(tr => tr.cells[0].innerText + ' ' + tr.cells[1].innerText).join(',')")
        #expect(lines as? String == "5 notFound,6 malformed", "\(lines ?? "")")
    }
}

import Foundation
import Testing

/// The README's screenshots, taken from a running `perennial serve --simulator` (seeded with a
/// year of subscribers) in headless Chromium:
///
/// ```
/// PERENNIAL_ADMIN_KEY=sk_demo swift run perennial serve --simulator &
/// PERENNIAL_DASHBOARD_URL=http://127.0.0.1:8080 PERENNIAL_DASHBOARD_KEY=sk_demo PERENNIAL_SCREENSHOTS=docs \
///   swift test --filter DashboardScreenshots
/// ```
@Suite(
    .enabled(
        if: HeadlessChromium.executable != nil && ProcessInfo.processInfo.environment["PERENNIAL_DASHBOARD_URL"] != nil
            && ProcessInfo.processInfo.environment["PERENNIAL_SCREENSHOTS"] != nil,
        "takes the README's screenshots: set PERENNIAL_DASHBOARD_URL, PERENNIAL_DASHBOARD_KEY and PERENNIAL_SCREENSHOTS"))
struct DashboardScreenshots {
    @Test func takeTheReadmeScreenshots() async throws {
        let environment = ProcessInfo.processInfo.environment
        let server = try #require(environment["PERENNIAL_DASHBOARD_URL"].flatMap(URL.init(string:)))
        let key = try #require(environment["PERENNIAL_DASHBOARD_KEY"])
        let directory = URL(fileURLWithPath: try #require(environment["PERENNIAL_SCREENSHOTS"]))
        let browser = try await HeadlessChromium(width: 1280, height: 900)
        do {
            try await Self.take(browser, server: server, key: key, directory: directory)
            await browser.close()
        } catch {
            await browser.close()
            throw error
        }
    }

    static func take(_ browser: HeadlessChromium, server: URL, key: String, directory: URL) async throws {
        func save(_ name: String) async throws {
            try await browser.screenshot().write(to: directory.appendingPathComponent("\(name).png"))
        }
        try await browser.open(server.appendingPathComponent("dashboard")) { $0.hasPrefix("/dashboard/sign-in") }
        try await browser.type(key, into: "#key")
        try await browser.navigating({ $0 == "/dashboard" }) { try await browser.pressEnter() }
        try await browser.open(URL(string: "\(server.absoluteString)/dashboard?range=365d")!) { $0.hasPrefix("/dashboard?") }
        try await save("dashboard-overview")

        try await browser.type("demo-user-007", into: "input[name=q]")
        try await browser.navigating({ $0.contains("/subscribers/") }) { try await browser.pressEnter() }
        // A V2 notification: its signed payload and the JWS nested in it, decoded.
        try await browser.click(".timeline li:nth-child(2) details summary")
        try await save("dashboard-subscriber")
        // The page's end: the data-subject requests (export, erasure with the user id typed again).
        _ = try await browser.evaluate("document.querySelector('form[action$=\"/erase\"]').scrollIntoView({block: 'center'})")
        try await browser.type("demo-user-007", into: "input[name=confirm]")
        try await save("dashboard-personal-data")

        try await browser.resize(width: 390, height: 844)
        try await browser.open(URL(string: "\(server.absoluteString)/dashboard?range=90d")!) { $0.hasPrefix("/dashboard?") }
        try await save("dashboard-phone")
    }
}

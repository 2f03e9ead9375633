import Foundation
import Testing

/// Two `perennial serve` processes on one PostgreSQL database share the dashboard's sessions: a
/// browser signed in through one is signed in on the other, and signing out on either signs it out
/// of both (the sessions were in each process's memory, so the other process sent it to sign-in).
@Suite(.enabled(if: ScratchDatabase.isAvailable))
struct TwoProcessDashboardTests {
    @Test func signInThroughOneActThroughTheOther() async throws {
        try await ScratchDatabase.with { database in
            let directory = try CLIProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let adminKey = "sk_two_\(UUID().uuidString)"
            let config = directory.appendingPathComponent("perennial.json")
            try Data(#"{"adminKey": "\#(adminKey)", "logLevel": "notice"}"#.utf8).write(to: config)
            let first = try await ServeProcess.start(config: config, database: database.url, logDirectory: directory, name: "a")
            defer { first.stop() }
            let second = try await ServeProcess.start(config: config, database: database.url, logDirectory: directory, name: "b")
            defer { second.stop() }

            let form = "application/x-www-form-urlencoded"
            let signIn = try await ServeLogTests.send(
                "POST", first.url.appendingPathComponent("dashboard/sign-in").absoluteString, body: "key=\(adminKey)&next=%2Fdashboard", contentType: form)
            let cookie = try #require(signIn.cookie?.split(separator: ";").first.map(String.init), "sign-in answered \(signIn.status)")
            // No app is configured: the search finds nobody (404), but the page is the signed-in one,
            // not the redirect to sign-in (303) a browser without a session gets.
            let overview = try await ServeLogTests.send("GET", second.url.absoluteString + "/dashboard/search?q=alice", cookie: cookie)
            #expect(overview.status != 303, "the other process does not know the session")
            let token = try #require(overview.text.range(of: #"name="csrf" value=""#).map { String(overview.text[$0.upperBound...].prefix { $0 != "\"" }) })
            let out = try await ServeLogTests.send(
                "POST", second.url.appendingPathComponent("dashboard/sign-out").absoluteString, body: "csrf=\(token)", contentType: form, cookie: cookie)
            #expect(out.status == 303)
            let after = try await ServeLogTests.send("GET", first.url.absoluteString + "/dashboard/search?q=alice", cookie: cookie)
            #expect(after.status == 303, "signed out through one process, still signed in on the other")
        }
    }
}

import Foundation
import PerennialTestSupport
import PerennialLiveHarness
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `perennial load` against a `perennial serve --simulator` sharing its PKI directory: the signed
/// notifications, transactions and retention requests are accepted (no errors) and the table has
/// the trivial row beside the scenario's.
@Suite struct LoadCommandTests {
    /// The repository root, where `Examples/catalog.json` is found.
    private static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: ["notifications", "mixed", "retention"])
    func loadPrintsTheTrivialRouteBesideTheScenarioWithNoErrors(scenario: String) async throws {
        try await Self.withServe { server, simulatorPort, pki in
            let output = try CLIProcess.run([
                "load", "--target", server.absoluteString, "--simulator", "http://127.0.0.1:\(simulatorPort)", "--pki", pki,
                "--scenario", scenario, "--concurrency", "2", "--duration", "2", "--users", "5",
            ])
            #expect(output.status == 0, "\(output.standardError)")
            try Self.expectTable(output.standardOutput, scenario: scenario)
            // Apple's requests also set their slowest answer against the time Apple waits; whether
            // it came in time is the machine's figure, not asserted here.
            let deadline = output.standardOutput.split(separator: "\n").first { $0.hasPrefix("slowest answer ") }
            #expect((deadline?.contains("; Apple waits 700.00 ms: ") ?? false) == (scenario == "retention"), "\(output.standardOutput)")
        }
    }

    /// Requests that fail measure nothing: the run says how many failed and what the first got,
    /// and exits 1 (it printed a table of errors and exited 0).
    @Test func aRunWhoseRequestsFailSaysWhyAndExitsOne() async throws {
        try await Self.withServe { server, simulatorPort, pki in
            let output = try CLIProcess.run([
                "load", "--target", server.absoluteString, "--simulator", "http://127.0.0.1:\(simulatorPort)", "--pki", pki,
                "--scenario", "notifications", "--app", "nope", "--concurrency", "2", "--duration", "1",
            ])
            #expect(output.status == 1)
            #expect(output.standardError.contains("notifications: "), "\(output.standardError)")
            #expect(output.standardError.contains("requests failed; the first: POST /apple/notifications/v2/nope: HTTP 404"), "\(output.standardError)")
            #expect(!output.standardError.contains("trivial"), "the trivial route answered: \(output.standardError)")
        }
    }

    /// Renewals of the warm-up's subscribers each write a `renewal` event, which the server's
    /// webhook job delivers to the load tool's receiver: every accepted renewal arrives.
    @Test func renewalsReportTheirWebhookDelivery() async throws {
        let webhookPort = try FreePort.loopback()
        try await Self.withServe(["--simulator-webhook", "http://127.0.0.1:\(webhookPort)/hooks"]) { server, simulatorPort, pki in
            let output = try CLIProcess.run([
                "load", "--target", server.absoluteString, "--simulator", "http://127.0.0.1:\(simulatorPort)", "--pki", pki,
                "--scenario", "renewals", "--concurrency", "2", "--duration", "2", "--users", "4", "--webhook-port", String(webhookPort),
            ])
            #expect(output.status == 0, "\(output.standardError)")
            try Self.expectTable(output.standardOutput, scenario: "renewals")
            let webhooks = try #require(output.standardOutput.split(separator: "\n").first { $0.hasPrefix("webhooks: ") })
            let accepted = try #require(Int(webhooks.split(separator: " ")[1]))
            #expect(accepted > 0)
            #expect(webhooks.contains("all \(accepted) arrived"), "\(webhooks)")
        }
    }

    /// The trivial row and the scenario's row both have successful requests and no errors, and
    /// the ratios follow.
    private static func expectTable(_ standardOutput: String, scenario: String) throws {
        let lines = standardOutput.split(separator: "\n").map(String.init)
        let trivial = try #require(lines.first { $0.hasPrefix("trivial /health/live") })
        let measured = try #require(lines.first { $0.hasPrefix(scenario + " ") })
        for row in [trivial, measured] {
            let columns = row.split(separator: " ")
            #expect((Int(columns[columns.count - 6]) ?? 0) > 0, "no requests succeeded: \(row)")
            #expect(columns.last == "0", "requests failed: \(row)")
        }
        #expect(lines.contains { $0.hasPrefix("throughput ") && $0.contains(" of trivial, p99 ") })
    }

    /// Runs `body` against a `serve --simulator` (with `arguments` added) on a fresh database and
    /// PKI directory, then stops it with SIGTERM.
    static func withServe(
        _ arguments: [String] = [], _ body: (_ server: URL, _ simulatorPort: Int, _ pki: String) async throws -> Void
    ) async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = directory.appendingPathComponent("pki").path
        let port = try FreePort.loopback()
        let simulatorPort = try FreePort.loopback()
        let process = ChildProcess()
        process.executableURL = try CLIProcess.executable()
        process.arguments = [
            // No demo subscribers: the load run measures its own traffic alone.
            "serve", "--simulator", "--no-simulator-seed", "--simulator-pki", pki, "--port", String(port), "--simulator-port", String(simulatorPort),
            "--database", "sqlite:\(directory.appendingPathComponent("perennial.sqlite").path)",
        ] + arguments
        process.currentDirectoryURL = Self.repositoryRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let server = try #require(URL(string: "http://127.0.0.1:\(port)"))
        var ready = false
        for _ in 0..<300 where !ready {
            ready = (try? await ServeCommandTests.get(server.appendingPathComponent("health/ready")))?.0 == 200
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(ready)
        try await body(server, simulatorPort, pki)
        kill(process.processIdentifier, SIGTERM)
        #expect(await process.exited())
    }
}

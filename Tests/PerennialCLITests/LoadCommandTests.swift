import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `perennial load` against a `perennial serve --simulator` sharing its PKI directory: the signed
/// notifications are accepted (no errors) and the table has the trivial row beside the scenario's.
@Suite struct LoadCommandTests {
    /// The repository root, where `Examples/catalog.json` is found.
    private static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: ["notifications", "mixed"])
    func loadPrintsTheTrivialRouteBesideTheScenarioWithNoErrors(scenario: String) async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = directory.appendingPathComponent("pki").path
        let port = try ServeCommandTests.freePort()
        let simulatorPort = try ServeCommandTests.freePort()
        let process = Process()
        process.executableURL = try CLIProcess.executable()
        process.arguments = [
            "serve", "--simulator", "--simulator-pki", pki, "--port", String(port), "--simulator-port", String(simulatorPort),
            "--database", "sqlite:\(directory.appendingPathComponent("perennial.sqlite").path)",
        ]
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

        let output = try CLIProcess.run([
            "load", "--target", server.absoluteString, "--simulator", "http://127.0.0.1:\(simulatorPort)", "--pki", pki,
            "--scenario", scenario, "--concurrency", "2", "--duration", "2", "--users", "5",
        ])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        let trivial = try #require(lines.first { $0.hasPrefix("trivial /health/live") })
        let measured = try #require(lines.first { $0.hasPrefix(scenario + " ") })
        for row in [trivial, measured] {
            let columns = row.split(separator: " ")
            #expect((Int(columns[columns.count - 6]) ?? 0) > 0, "no requests succeeded: \(row)")
            #expect(columns.last == "0", "requests failed: \(row)")
        }
        #expect(lines.contains { $0.hasPrefix("throughput ") && $0.contains(" of trivial, p99 ") })

        kill(process.processIdentifier, SIGTERM)
        #expect(await process.exited())
    }
}

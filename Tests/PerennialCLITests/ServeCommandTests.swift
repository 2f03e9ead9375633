import Foundation
import PerennialLiveHarness
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `perennial serve` started as the README says, on a fresh directory: it migrates its SQLite
/// file, answers its readiness check, and exits 0 on SIGTERM.
@Suite struct ServeCommandTests {
    @Test func serveAnswersItsReadinessCheckAndStopsCleanlyOnSIGTERM() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try FreePort.loopback()
        let database = directory.appendingPathComponent("fresh/perennial.sqlite").path
        let process = Process()
        process.executableURL = try CLIProcess.executable()
        process.arguments = ["serve", "--port", String(port), "--database", "sqlite:\(database)"]
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        var status: Int?
        var body = ""
        for _ in 0..<150 where status == nil {
            if let (code, text) = try? await Self.get(URL(string: "http://127.0.0.1:\(port)/health/ready")!) {
                status = code
                body = text
            } else {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(status == 200)
        #expect(body.contains(#""status":"ok""#))
        #expect(FileManager.default.fileExists(atPath: database))

        kill(process.processIdentifier, SIGTERM)
        #expect(await process.exited())
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("no app is configured"))
    }

    static func get(_ url: URL) async throws -> (Int, String) {
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

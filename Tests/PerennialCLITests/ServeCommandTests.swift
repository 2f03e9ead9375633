import Foundation
import PerennialTestSupport
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
/// file, answers its readiness check, and exits 0 on SIGTERM. What it cannot do, it says plainly.
@Suite struct ServeCommandTests {
    /// A port past 65535 was taken modulo 65,536 by the socket: the log said 99999 and the server
    /// listened on 34463. Each port option refuses it now, naming the option.
    @Test(arguments: [["serve", "--port", "99999"], ["serve", "--simulator-port", "70000"], ["simulator", "serve", "--port", "65536"]])
    func aPortOutsideTheRangeIsRefused(arguments: [String]) throws {
        let output = try CLIProcess.run(arguments)
        #expect(output.status == 64)
        #expect(output.standardError.contains("The value '\(arguments.last!)' is invalid for '\(arguments[arguments.count - 2])"), "\(output.standardError)")
    }

    /// A PostgreSQL that refuses the connection or the credentials is told at once, with its own
    /// reason: the pool retried for about a minute after logging "listening", then named only its
    /// circuit breaker.
    @Test func anUnusablePostgreSQLIsToldAtOnce() throws {
        var cases = [("postgres://perennial@127.0.0.1:1/nowhere", "cannot connect to PostgreSQL at 127.0.0.1:1: Connection refused")]
        if let url = ProcessInfo.processInfo.environment["PERENNIAL_POSTGRES_URL"], var wrong = URLComponents(string: url) {
            wrong.password = "not-the-password"
            cases.append((wrong.string ?? url, "password authentication failed"))
        }
        for (url, reason) in cases {
            let output = try CLIProcess.run(["serve", "--database", url, "--port", String(try FreePort.loopback())])
            #expect(output.status == 1)
            #expect(output.standardError.contains(reason), "\(output.standardError)")
            #expect(!output.standardError.contains("listening"))
        }
    }

    /// A database directory that cannot be made is named with the system's reason, not Foundation's
    /// error dump.
    @Test func anUnusableDatabaseDirectoryIsSaidPlainly() throws {
        let output = try CLIProcess.run(["serve", "--database", "sqlite:/proc/perennial-nowhere/p.sqlite"])
        #expect(output.status == 1)
        #expect(output.standardError.contains("cannot create the SQLite database's directory /proc/perennial-nowhere: No such file or directory"), "\(output.standardError)")
        #expect(!output.standardError.contains("NSCocoaErrorDomain"))
    }

    @Test func serveAnswersItsReadinessCheckAndStopsCleanlyOnSIGTERM() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try FreePort.loopback()
        let database = directory.appendingPathComponent("fresh/perennial.sqlite").path
        let process = ChildProcess()
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

    /// A port another process holds is named, with the option that picks another (NIO's
    /// "bind(descriptor:ptr:bytes:): Address already in use" named neither).
    @Test func aPortInUseIsNamed() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try FreePort.loopback()
        let first = ChildProcess()
        first.executableURL = try CLIProcess.executable()
        first.arguments = ["serve", "--port", String(port), "--database", "sqlite:\(directory.path)/first.sqlite"]
        first.standardError = FileHandle.nullDevice
        first.standardOutput = FileHandle.nullDevice
        try first.run()
        defer { if first.isRunning { first.terminate() } }
        var up = false
        for _ in 0..<150 where !up {
            up = (try? await Self.get(URL(string: "http://127.0.0.1:\(port)/health/live")!))?.0 == 200
            if !up { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(up)
        let second = try CLIProcess.run(["serve", "--port", String(port), "--database", "sqlite:\(directory.path)/second.sqlite"])
        #expect(second.status == 1)
        #expect(
            second.standardError.contains("cannot listen on 127.0.0.1:\(port): another process is using it (pick another with --port)"),
            "\(second.standardError)")
    }

    static func get(_ url: URL) async throws -> (Int, String) {
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

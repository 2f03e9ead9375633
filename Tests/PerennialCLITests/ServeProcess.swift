import Foundation
import PerennialTestSupport
import PerennialLiveHarness

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `perennial serve` process started from the built executable, its output in a log file (a
/// pipe nobody reads would fill up and block the server).
struct ServeProcess {
    let process: ChildProcess
    let url: URL
    let log: URL

    var pid: Int32 { process.processIdentifier }

    /// Starts `perennial serve` with `config` on a free port and waits until it answers its readiness
    /// check (migrations done); `arguments` are added to serve's.
    static func start(config: URL, database: String, logDirectory: URL, name: String, arguments: [String] = []) async throws -> ServeProcess {
        let port = try FreePort.loopback()
        let log = logDirectory.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        let process = ChildProcess()
        process.executableURL = try CLIProcess.executable()
        process.arguments = ["serve", "--config", config.path, "--port", String(port), "--database", database] + arguments
        process.standardOutput = output
        process.standardError = output
        guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw CLIProcess.CLIError("port \(port) makes no URL") }
        try process.run()
        let server = ServeProcess(process: process, url: url, log: log)
        for _ in 0..<300 {
            if (try? await ServeCommandTests.get(server.url.appendingPathComponent("health/ready")))?.0 == 200 { return server }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        server.stop()
        throw CLIProcess.CLIError("perennial serve (\(name)) did not become ready:\n\(server.logText)")
    }

    /// What the server logged so far.
    var logText: String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// Kills the process without letting it finish anything, as a crash or `kill -9` would.
    func crash() async {
        kill(pid, SIGKILL)
        _ = await process.exited(within: .seconds(10))
    }

    /// Asks the process to stop gracefully (SIGTERM) if it still runs. It does not wait (it runs
    /// from `defer`, which cannot suspend, and blocking a pool thread would stall other tests).
    func stop() {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
    }

    /// How many deliveries this process completed, from its `/metrics`
    /// (`…webhook_deliveries_total{outcome="delivered"}`; 0 before its first).
    func deliveredCount() async throws -> Int {
        let (_, text) = try await ServeCommandTests.get(url.appendingPathComponent("metrics"))
        let line = text.split(separator: "\n").first { !$0.hasPrefix("#") && $0.contains("webhook_deliveries") && $0.contains(#"outcome="delivered""#) }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.map { Int($0) } ?? 0
    }

    /// POSTs a JSON body with the app's client key; returns the HTTP status.
    func post(_ path: String, json: String, bearer: String) async throws -> Int {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(json.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}

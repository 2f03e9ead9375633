import Foundation
import PerennialTestSupport
import PerennialLiveHarness
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `perennial serve` under the common default of 1,024 open files: the probe's 1,100 idle
/// connections made every normal request time out until they closed, which they never did. Now
/// the soft limit is raised to the hard one at start, connections are capped below it, and idle
/// ones are let go after the header timeout, so a normal request is answered.
@Suite struct ServeConnectionLimitTests {
    /// With a hard limit of 1,024 the cap (1,024 less 256 kept for the rest) makes the idle ones
    /// wait in the backlog; with room above the soft limit, the limit is raised first.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")),
        arguments: [("1024:1024", ["maxConnections=768"]), ("1024:2048", ["from=1024 to=2048", "maxConnections=1792"])])
    func aNormalRequestIsAnsweredPastElevenHundredIdleConnections(openFiles: String, logged: [String]) async throws {
        try Self.allowThisProcess(files: 4_096)
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try FreePort.loopback()
        let config = directory.appendingPathComponent("perennial.json")
        try Data(#"{"limits": {"headerTimeoutSeconds": 1}}"#.utf8).write(to: config)
        let log = directory.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = [
            "--nofile=\(openFiles)", try CLIProcess.executable().path, "serve", "--config", config.path, "--port", String(port),
            "--database", "sqlite:\(directory.path)/p.sqlite",
        ]
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var up = false
        for _ in 0..<150 where !up {
            up = (try? await ServeCommandTests.get(URL(string: "http://127.0.0.1:\(port)/health/live")!))?.0 == 200
            if !up { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(up)

        let idle = (0..<1_100).map { _ in Self.connectWithoutSending(port: port) }
        defer { for socket in idle where socket >= 0 { close(socket) } }
        try await Task.sleep(for: .milliseconds(500))
        let (status, _) = try await ServeCommandTests.get(URL(string: "http://127.0.0.1:\(port)/health/live")!)
        #expect(status == 200)

        let printed = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        for line in logged { #expect(printed.contains(line), "\(printed)") }
    }

    /// The test's own 1,100 sockets need room under its own limit.
    static func allowThisProcess(files: rlim_t) throws {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        guard limit.rlim_cur < files else { return }
        limit.rlim_cur = min(files, limit.rlim_max)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// A socket connecting to `port` that never sends: the probe's idle client. Non-blocking, so
    /// the connections beyond the server's backlog do not stall the test.
    static func connectWithoutSending(port: Int) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return socket }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return socket
    }
}

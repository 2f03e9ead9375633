import Foundation
import PerennialTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `perennial simulator` as a user starts it: a real process on a free port.
@Suite("perennial simulator")
struct SimulatorCommandTests {
    /// Starts the binary on port 0, reads the port it prints, asks its clock, and stops it with
    /// SIGINT (graceful shutdown through swift-service-lifecycle).
    @Test func servesItsClockEndpointAndWritesTheRoots() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = try CLIProcess.writeCatalog(in: directory)
        let roots = directory.appendingPathComponent("roots")

        let process = ChildProcess()
        process.executableURL = try CLIProcess.executable()
        process.arguments = [
            "simulator", "--port", "0", "--catalog", catalog.path, "--roots-dir", roots.path, "--virtual-clock", "--seed", "3",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
        }

        let port = try await Self.listeningPort(output.fileHandleForReading)
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/simulator/v1/clock")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let clock = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect((clock?["now"] as? String)?.hasSuffix("Z") == true)
        #expect(FileManager.default.fileExists(atPath: roots.appendingPathComponent("jws-root.der").path))
        #expect(FileManager.default.fileExists(atPath: roots.appendingPathComponent("receipt-root.der").path))

        process.interrupt()
        #expect(await process.exited())
        #expect(process.terminationReason == .exit)
    }

    @Test func failsClearlyWithoutACatalog() throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = ChildProcess()
        process.executableURL = try CLIProcess.executable()
        process.arguments = ["simulator", "--port", "0"]
        process.currentDirectoryURL = directory
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(message.contains("--catalog"))
    }

    struct NoPort: Error { let output: String }

    /// Reads standard output until the "listening on http://host:port" line.
    static func listeningPort(_ handle: FileHandle) async throws -> Int {
        var text = ""
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { throw NoPort(output: text) }
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.contains("listening on http://") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
            {
                return port
            }
        }
    }
}

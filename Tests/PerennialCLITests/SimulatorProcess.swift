import Foundation
import PerennialTestSupport
import Testing

/// `perennial simulator` started as Apple for a CLI test: a Server API that takes one key, its
/// signing roots written to a directory, notifications sent once to a server's URL.
struct SimulatorProcess {
    let process: ChildProcess
    /// Where its Server API and device routes answer.
    let url: URL

    /// Starts it with the catalog, the Server API key (`keyFile`, with ``CheckCommandTests``'s key
    /// and issuer ids), when given the URL its V2 notifications go to, and `arguments`; waits until
    /// it listens.
    static func start(
        catalog: URL, rootsDirectory: URL, keyFile: URL, notifyV2: String? = nil, arguments: [String] = []
    ) async throws -> SimulatorProcess {
        let process = ChildProcess()
        process.executableURL = try CLIProcess.executable()
        process.arguments =
            [
                "simulator", "--port", "0", "--catalog", catalog.path, "--roots-dir", rootsDirectory.path,
                "--server-api-key", keyFile.path, "--key-id", CheckCommandTests.keyID, "--issuer-id", CheckCommandTests.issuerID,
            ] + (notifyV2.map { ["--notify-v2", $0, "--send-once"] } ?? []) + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = try await SimulatorServerAPIKeyTests.read(output.fileHandleForReading, until: "aud appstoreconnect-v1")
        let port = try #require(
            printed.split(separator: "\n").first(where: { $0.contains("listening on http://") })
                .flatMap { $0.split(separator: ":").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        return SimulatorProcess(process: process, url: try #require(URL(string: "http://127.0.0.1:\(port)")))
    }

    func stop() {
        if process.isRunning { process.terminate() }
    }
}

extension CheckCommandTests.Setup {
    /// Where the setup's simulator writes its signing roots.
    var roots: URL { directory.appendingPathComponent("roots") }

    /// `perennial simulator` as Apple for the setup's catalog and Server API key.
    func startSimulator(notifyV2: String? = nil) async throws -> SimulatorProcess {
        try await SimulatorProcess.start(
            catalog: directory.appendingPathComponent("catalog.json"), rootsDirectory: roots, keyFile: keyFile, notifyV2: notifyV2)
    }
}

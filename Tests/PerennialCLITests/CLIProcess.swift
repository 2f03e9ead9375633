import Foundation
import PerennialTestSupport

/// Runs the built `perennial` executable as a user would, capturing its output and exit status.
///
/// The executable sits beside the test bundle in the build directory (this test target depends on
/// it, so SwiftPM builds it first).
struct CLIProcess {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// Standard output parsed as a JSON object.
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any] else {
                throw CLIError("standard output is not a JSON object: \(standardOutput)")
            }
            return object
        }
    }

    struct CLIError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func executable() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("perennial")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw CLIError("the perennial executable was not found near \(CommandLine.arguments[0])")
    }

    /// Runs `perennial`, or another `program` (PostgreSQL's client tools), to its end.
    static func run(_ arguments: [String], program: URL? = nil) throws -> Output {
        let process = ChildProcess()
        process.executableURL = try program ?? executable()
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
        let standardError = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: standardOutput, as: UTF8.self),
            standardError: String(decoding: standardError, as: UTF8.self)
        )
    }

    /// A fresh temporary directory for files a test writes.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A one-product catalog (`com.example.cli`, `cli.monthly`) written to `directory`, for the
    /// commands that sell it.
    static func writeCatalog(in directory: URL) throws -> URL {
        let catalog = directory.appendingPathComponent("catalog.json")
        try Data(
            #"{"apps": [{"bundleId": "com.example.cli"}], "subscriptionGroups": [{"id": "g", "products": [{"id": "cli.monthly", "level": 1, "duration": "P1M"}]}]}"#
                .utf8
        ).write(to: catalog)
        return catalog
    }
}

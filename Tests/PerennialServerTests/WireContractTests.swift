import Foundation
import PerennialTestSupport
import Testing

/// The wire contract held in one place: every golden answer (Golden/*.json, the server's exact
/// JSON) validates against the schema docs/openapi.yaml gives its route and status, with every
/// object closed, so a field the server sends and the spec does not name, or one the spec
/// requires and the server leaves out, fails here. Scripts/check-wire-contract does the
/// validation with Python's jsonschema (JSON Schema 2020-12, OpenAPI 3.1's dialect).
@Suite struct WireContractTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyGoldenAnswerMatchesTheSpecsSchema() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("Scripts/check-wire-contract").path]
        process.currentDirectoryURL = Self.root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains(" answers checked against docs/openapi.yaml, 0 failing"), "\(text)")
    }
}

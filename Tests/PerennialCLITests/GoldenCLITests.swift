// Golden files pin the JSON that `perennial jws decode|verify` and `perennial receipt decode`
// print for Apple's published vectors (Golden/*.json beside this file): other programs parse it,
// so a change is a visible diff. Nothing is normalized: the inputs are fixed files and the
// verification time is the payload's own signedDate. Regenerate them (the tests then write
// instead of compare):
//   PERENNIAL_UPDATE_GOLDEN=1 PERENNIAL_FIXTURES=../shared/fixtures swift test --filter Golden
import Foundation
import PerennialTestSupport
import Testing

@Suite(.enabled(if: Fixtures.isAvailable))
struct GoldenCLITests {
    static let golden = GoldenFiles()

    /// One command line; `{fixtures}` stands for the fixtures directory.
    struct Invocation: CustomTestStringConvertible, Sendable {
        let golden: String
        let arguments: [String]

        var testDescription: String { golden }

        func run() throws -> CLIProcess.Output {
            let directory = try Fixtures.url("").path
            return try CLIProcess.run(arguments.map { $0.replacingOccurrences(of: "{fixtures}/", with: directory.hasSuffix("/") ? directory : directory + "/") })
        }
    }

    static let mock = "{fixtures}/apple-server-library/mock_signed_data"
    static let xcode = "{fixtures}/apple-server-library/xcode"

    static let invocations: [Invocation] = [
        Invocation(golden: "jws-decode-test-notification", arguments: ["jws", "decode", "\(mock)/testNotification"]),
        Invocation(golden: "jws-decode-transaction-info", arguments: ["jws", "decode", "\(mock)/transactionInfo"]),
        Invocation(golden: "jws-decode-renewal-info", arguments: ["jws", "decode", "\(mock)/renewalInfo"]),
        Invocation(golden: "jws-decode-xcode-app-transaction", arguments: ["jws", "decode", "\(xcode)/xcode-signed-app-transaction"]),
        Invocation(
            golden: "jws-verify-test-notification",
            arguments: [
                "jws", "verify", "\(mock)/testNotification", "--root", "{fixtures}/apple-server-library/certs/testCA.der",
                "--bundle-id", "com.example", "--environment", "Sandbox",
            ]),
        Invocation(golden: "receipt-decode-xcode-app-receipt", arguments: ["receipt", "decode", "\(xcode)/xcode-app-receipt-with-transaction"]),
        Invocation(golden: "receipt-decode-xcode-app-receipt-empty", arguments: ["receipt", "decode", "\(xcode)/xcode-app-receipt-empty"]),
        Invocation(
            golden: "receipt-decode-xcode-app-receipt-untrusted",
            arguments: ["receipt", "decode", "\(xcode)/xcode-app-receipt-with-transaction", "--root", "{fixtures}/apple-inc-root.cer"]),
        Invocation(golden: "receipt-decode-legacy-transaction", arguments: ["receipt", "decode", "\(mock)/legacyTransaction"]),
        Invocation(
            golden: "receipt-decode-legacy-transaction-with-root",
            arguments: ["receipt", "decode", "\(mock)/legacyTransaction", "--root", "{fixtures}/apple-inc-root.cer"]),
    ]

    /// The command line (fixture paths relative), its exit status and its standard output as JSON.
    @Test(arguments: invocations)
    func commandPrintsItsGoldenJSON(_ invocation: Invocation) throws {
        let output = try invocation.run()
        let printed = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8), options: [.fragmentsAllowed])
        let recorded: [String: Any] = [
            "command": (["perennial"] + invocation.arguments).joined(separator: " "),
            "exitStatus": Int(output.status),
            "standardOutput": printed,
        ]
        if let mismatch = try Self.golden.mismatch(recorded, named: invocation.golden) {
            Issue.record(Comment(rawValue: mismatch.description))
        }
    }
}

import Foundation
import PerennialAppStore
import PerennialTestSupport
import Testing

/// `perennial jws verify|decode` against Apple's vectors and a chain generated here.
@Suite(.enabled(if: Fixtures.isAvailable))
struct JWSCommandTests {
    static let mock = "apple-server-library/mock_signed_data"

    @Test func verifyPrintsTheTestNotificationForTheRightAppAndEnvironment() throws {
        let output = try CLIProcess.run([
            "jws", "verify", Fixtures.url("\(Self.mock)/testNotification").path,
            "--root", Fixtures.url("apple-server-library/certs/testCA.der").path,
            "--bundle-id", "com.example", "--environment", "Sandbox",
        ])
        #expect(output.status == 0, "\(output.standardError)")
        let json = try output.json()
        #expect(json["notificationType"] as? String == "TEST")
        #expect((json["data"] as? [String: Any])?["bundleId"] as? String == "com.example")
    }

    @Test func verifyRejectsTheTestNotificationForProduction() throws {
        let output = try CLIProcess.run([
            "jws", "verify", Fixtures.url("\(Self.mock)/testNotification").path,
            "--root", Fixtures.url("apple-server-library/certs/testCA.der").path,
            "--bundle-id", "com.example", "--environment", "Production", "--app-apple-id", "1234",
        ])
        #expect(output.status == 1)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError.contains("wrong environment: expected Production, got Sandbox"))
    }

    @Test func verifyRefusesAnEnvironmentNotSpelledAsApplesIs() throws {
        let output = try CLIProcess.run([
            "jws", "verify", try Fixtures.url("\(Self.mock)/testNotification").path,
            "--root", try Fixtures.url("apple-server-library/certs/testCA.der").path, "--bundle-id", "com.example", "--environment", "prod",
        ])
        #expect(output.status == 64)
        #expect(output.standardError.contains("--environment prod is not one of Production, Sandbox, Xcode, LocalTesting"), "\(output.standardError)")
    }

    /// Apple's vector without a signedDate is validated now, as Apple's libraries do, and fails
    /// for what it is about (the wrong bundle id), not as malformed.
    @Test func aPayloadWithoutASignedDateIsValidatedNow() throws {
        let output = try CLIProcess.run([
            "jws", "verify", try Fixtures.url("\(Self.mock)/wrongBundleId").path,
            "--root", try Fixtures.url("apple-server-library/certs/testCA.der").path, "--bundle-id", "com.example", "--environment", "Sandbox",
        ])
        #expect(output.status == 1)
        #expect(output.standardError.contains("wrong bundle id") && !output.standardError.contains("signedDate"), "\(output.standardError)")
    }

    /// `decode` of a JWS whose payload is not JSON says so, not Foundation's error.
    @Test func decodeOfAPayloadThatIsNotJSONSaysSo() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-\(UUID().uuidString).jws")
        try Data("eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2ln".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try CLIProcess.run(["jws", "decode", file.path])
        #expect(output.status == 1)
        #expect(output.standardError.contains("the JWS payload is not a JSON object") && !output.standardError.contains("NSCocoaErrorDomain"), "\(output.standardError)")
    }

    @Test func verifyRejectsAnUntrustedRoot() throws {
        let output = try CLIProcess.run([
            "jws", "verify", Fixtures.url("\(Self.mock)/transactionInfo").path,
            "--root", Fixtures.url("apple-root-ca-g3.cer").path,
        ])
        #expect(output.status == 1)
        #expect(output.standardError.contains("rejected:"))
    }

    /// `decode` verifies nothing, so a header Apple's verifier refuses (no certificate chain) still
    /// decodes; `verify` refuses it.
    @Test func decodeShowsAPayloadWhoseHeaderHasNoChain() throws {
        let missing = try Fixtures.url("\(Self.mock)/missingX5CHeaderClaim").path
        let decoded = try CLIProcess.run(["jws", "decode", missing])
        #expect(decoded.status == 0, "\(decoded.standardError)")
        #expect(try decoded.json()["notificationType"] != nil)
        let verified = try CLIProcess.run(["jws", "verify", missing, "--root", Fixtures.url("apple-server-library/certs/testCA.der").path])
        #expect(verified.status == 1 && verified.standardError.contains("x5c"), "\(verified.standardError)")
    }

    /// An input that cannot be read is named with the system's reason, not Foundation's error dump.
    @Test func anUnreadableInputIsSaidPlainly() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-\(UUID().uuidString).jws").path
        let output = try CLIProcess.run(["jws", "decode", missing])
        #expect(output.status == 1)
        #expect(output.standardError == "Error: cannot read \(missing): No such file or directory\n", "\(output.standardError)")
        let directory = try CLIProcess.run(["receipt", "decode", FileManager.default.temporaryDirectory.path])
        #expect(directory.standardError.contains(": Is a directory"), "\(directory.standardError)")
    }

    @Test func decodeAndVerifyOpenNestedJWS() throws {
        let pki = try AppleShapedPKI.generate(.init(validFrom: Date(timeIntervalSince1970: 1_704_067_200)))
        let signedDate = 1_717_200_000_000
        let transaction = try pki.sign(payloadJSON: Data(#"{"transactionId":"7","bundleId":"com.example","environment":"Sandbox","signedDate":\#(signedDate)}"#.utf8))
        let notification = try pki.sign(payloadJSON: Data(#"{"notificationType":"DID_RENEW","signedDate":\#(signedDate),"data":{"bundleId":"com.example","environment":"Sandbox","signedTransactionInfo":"\#(transaction)"}}"#.utf8))
        let directory = try CLIProcess.temporaryDirectory()
        let file = directory.appendingPathComponent("notification.jws")
        try Data(notification.utf8).write(to: file)
        let root = directory.appendingPathComponent("root.der")
        try pki.rootDER.write(to: root)

        for arguments in [["jws", "decode", file.path], ["jws", "verify", file.path, "--root", root.path, "--bundle-id", "com.example", "--environment", "Sandbox"]] {
            let output = try CLIProcess.run(arguments)
            #expect(output.status == 0, "\(arguments): \(output.standardError)")
            let nested = (try output.json()["data"] as? [String: Any])?["signedTransactionInfo"] as? [String: Any]
            #expect(nested?["transactionId"] as? String == "7", "\(arguments)")
        }
    }
}

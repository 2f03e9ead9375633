import Crypto
import Foundation
import PerennialTestSupport
import PerennialLiveHarness
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `perennial check` as a team runs it before going live: each thing wrong is said with what to
/// do and its own exit code; `--online` proves, through a test notification, that Apple (here the
/// simulator) reaches the server.
@Suite struct CheckCommandTests {
    static let keyID = SimulatorServerAPIKeyTests.keyID
    static let issuerID = SimulatorServerAPIKeyTests.issuerID

    /// A configuration of one app `cli`, written beside a catalog, a key and the given roots.
    struct Setup {
        let directory: URL
        let keyFile: URL
        let key: P256.Signing.PrivateKey

        init() throws {
            directory = try CLIProcess.temporaryDirectory()
            key = P256.Signing.PrivateKey()
            keyFile = directory.appendingPathComponent("AuthKey_\(CheckCommandTests.keyID).p8")
            try Data(key.pemRepresentation.utf8).write(to: keyFile)
            _ = try CLIProcess.writeCatalog(in: directory)
        }

        func configuration(
            roots: [String], environments: [String] = ["Sandbox"], keyID: String = CheckCommandTests.keyID,
            issuerID: String = CheckCommandTests.issuerID, serverAPI: URL? = nil, port: Int = 8080
        ) throws -> URL {
            let base = serverAPI.map { #", "baseURL": "\#($0.absoluteString)""# } ?? ""
            let json = """
                {"port": \(port), "database": "sqlite:\(directory.path)/p.sqlite", "apps": [{"id": "cli", "bundleId": "com.example.cli",
                 "appAppleId": 1234567890, "catalog": "catalog.json", "environments": \(environments), "publicKeys": ["pk_cli"],
                 "trustedRoots": \(roots),
                 "serverAPI": {"keyId": "\(keyID)", "issuerId": "\(issuerID)", "privateKey": "file:\(keyFile.path)"\(base)}}]}
                """
            let file = directory.appendingPathComponent("perennial.json")
            try Data(json.utf8).write(to: file)
            return file
        }
    }

    static var fixtures: URL? {
        ProcessInfo.processInfo.environment["PERENNIAL_FIXTURES"].map { URL(fileURLWithPath: $0) }
    }

    @Test func anUnreadableFileIsItsOwnError() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let file = setup.directory.appendingPathComponent("broken.json")
        try Data(#"{"apps": [ {"#.utf8).write(to: file)
        let output = try CLIProcess.run(["check", "--config", file.path])
        #expect(output.status == 2)
        #expect(output.standardOutput.contains("ERROR   \(file.path):"), "\(output.standardOutput)")
    }

    /// Apple's roots are named by fingerprint; any other root is loud, and an error for Production.
    @Test(.enabled(if: fixtures != nil, "set PERENNIAL_FIXTURES to run"))
    func rootsAreApplesByFingerprintOrSaidNotToBe() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let apple = try #require(Self.fixtures).appendingPathComponent("apple-root-ca-g3.cer").path
        let own = setup.directory.appendingPathComponent("own-root.der")
        try Data(try Self.selfSignedRoot()).write(to: own)

        let good = try CLIProcess.run(["check", "--config", try setup.configuration(roots: [apple], environments: ["Production", "Sandbox"]).path])
        #expect(good.status == 0, "\(good.standardOutput)")
        #expect(good.standardOutput.contains("ok      apps.cli.trustedRoots: Apple Root CA - G3 (SHA-256 63343abf"))
        #expect(good.standardOutput.contains("does not exist yet: `perennial serve` (or `perennial migrate`) creates it"))

        let sandbox = try CLIProcess.run(["check", "--config", try setup.configuration(roots: [own.path]).path])
        #expect(sandbox.status == 0, "\(sandbox.standardOutput)")
        #expect(sandbox.standardOutput.contains("warning apps.cli.trustedRoots: CN=Perennial Test Root"))
        #expect(sandbox.standardOutput.contains("is NOT one of Apple's roots"))

        let production = try CLIProcess.run(["check", "--config", try setup.configuration(roots: [own.path], environments: ["Production"]).path])
        #expect(production.status == 4, "\(production.standardOutput)")
        #expect(production.standardOutput.contains("the app accepts Production: trust Apple Root CA - G3"))
    }

    @Test(.enabled(if: fixtures != nil, "set PERENNIAL_FIXTURES to run"))
    func aKeyIdThatIsNotTheKeyFilesIsAnError() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let apple = try #require(Self.fixtures).appendingPathComponent("apple-root-ca-g3.cer").path
        let other = try CLIProcess.run(["check", "--config", try setup.configuration(roots: [apple], keyID: "ZZZZZ99999").path])
        #expect(other.status == 3, "\(other.standardOutput)")
        #expect(other.standardOutput.contains("is named for key \(Self.keyID): use the key id of that file"))
        let malformed = try CLIProcess.run(["check", "--config", try setup.configuration(roots: [apple], keyID: "abc").path])
        #expect(malformed.status == 3)
        #expect(malformed.standardOutput.contains("keyId abc is not a key id"))
    }

    /// `--online` against the simulator as Apple: a key it takes and a server it reaches pass; a
    /// key or an issuer id it refuses (Apple answers both with the same 401), and a notification
    /// URL nobody answers, each fail with their own code.
    @Test(arguments: ["reached", "wrong key", "wrong issuer", "unreachable"])
    func onlineTheTestNotificationMustReachTheServer(_ situation: String) async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let serverPort = try FreePort.loopback()
        let notify = situation == "unreachable" ? try FreePort.loopback() : serverPort
        let roots = setup.roots
        let simulator = try await setup.startSimulator(notifyV2: "http://127.0.0.1:\(notify)/apple/notifications/v2/cli")
        defer { simulator.stop() }
        let base = simulator.url
        let config = try setup.configuration(
            roots: [roots.appendingPathComponent("jws-root.der").path],
            issuerID: situation == "wrong issuer" ? UUID().uuidString.lowercased() : Self.issuerID, serverAPI: base, port: serverPort)

        let server = ChildProcess()
        server.executableURL = try CLIProcess.executable()
        server.arguments = ["serve", "--config", config.path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        var up = false
        for _ in 0..<150 where !up {
            up = (try? await ServeCommandTests.get(URL(string: "http://127.0.0.1:\(serverPort)/health/ready")!))?.0 == 200
            if !up { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(up)
        if situation == "wrong key" {
            // Another key in the file the configuration names: Apple refuses its tokens.
            try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: setup.keyFile)
        }
        let check = try CLIProcess.run(["check", "--config", config.path, "--online", "--timeout", "5"])
        switch situation {
        case "reached":
            #expect(check.status == 0, "\(check.standardOutput)")
            #expect(check.standardOutput.contains("ok      apps.cli: Apple's test notification reached this server"))
            #expect(check.standardOutput.contains("ok      the database answers, its schema current"))
        case "wrong key", "wrong issuer":
            #expect(check.status == 6, "\(check.standardOutput)")
            #expect(check.standardOutput.contains("Apple refused the key (401): check that keyId and issuerId are those of this key"))
        default:
            #expect(check.status == 7, "\(check.standardOutput)")
            #expect(check.standardOutput.contains("did not reach this server"))
            #expect(check.standardOutput.contains("/apple/notifications/v2/cli"))
        }
    }

    /// A self-signed root no one else trusts, in DER.
    static func selfSignedRoot() throws -> [UInt8] {
        let openssl = ChildProcess()
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", directory.appendingPathComponent("k.pem").path,
            "-out", directory.appendingPathComponent("c.der").path, "-outform", "DER", "-subj", "/CN=Perennial Test Root", "-days", "3650",
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        return Array(try Data(contentsOf: directory.appendingPathComponent("c.der")))
    }
}

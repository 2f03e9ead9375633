import Crypto
import Foundation
import PerennialTestSupport
import PerennialAppStore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `perennial simulator --server-api-key FILE --key-id ID --issuer-id ID` as a user starts it: a
/// client outside the process calls the simulated App Store Server API with a token it signs
/// itself, and a bad option ends the command with a message saying which.
@Suite("perennial simulator --server-api-key")
struct SimulatorServerAPIKeyTests {
    static let keyID = "CLIKEY1234"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let bundleID = "com.example.cli"

    @Test func acceptsTokensSignedWithTheGivenKeyAndNoOther() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = try CLIProcess.writeCatalog(in: directory)
        let key = P256.Signing.PrivateKey()
        let keyFile = directory.appendingPathComponent("AuthKey_\(Self.keyID).p8")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)

        let process = ChildProcess()
        process.executableURL = try CLIProcess.executable()
        process.arguments = [
            "simulator", "--port", "0", "--catalog", catalog.path, "--virtual-clock",
            "--server-api-key", keyFile.path, "--key-id", Self.keyID, "--issuer-id", Self.issuerID,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let printed = try await Self.read(output.fileHandleForReading, until: "aud appstoreconnect-v1")
        let port = try #require(
            printed.split(separator: "\n").first(where: { $0.contains("listening on http://") })
                .flatMap { $0.split(separator: ":").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        let simulator = try #require(URL(string: "http://127.0.0.1:\(port)"))
        // What a client must use, printed at start.
        #expect(printed.contains("App Store Server API \(simulator.absoluteString)"))
        #expect(printed.contains("kid \(Self.keyID)"))
        #expect(printed.contains("iss \(Self.issuerID)"))
        #expect(printed.contains("bid \(Self.bundleID)"))

        _ = try await Self.send("POST", simulator.appendingPathComponent("simulator/v1/accounts"), body: #"{"id":"alice","storefront":"USA"}"#)
        let bought = try await Self.send(
            "POST", simulator.appendingPathComponent("simulator/v1/purchases"), body: #"{"account":"alice","productId":"cli.monthly"}"#)
        let originalTransactionID = try #require(bought.json["originalTransactionId"] as? String)
        let statuses = simulator.appendingPathComponent("inApps/v1/subscriptions/\(originalTransactionID)")

        let accepted = try await Self.send("GET", statuses, bearer: try Self.token(key: key))
        #expect(accepted.status == 200)
        #expect(accepted.json["bundleId"] as? String == Self.bundleID)
        let otherKey = try await Self.send("GET", statuses, bearer: try Self.token(key: P256.Signing.PrivateKey()))
        #expect(otherKey.status == 401)
        let otherIssuer = try await Self.send("GET", statuses, bearer: try Self.token(key: key, issuerID: "another-issuer"))
        #expect(otherIssuer.status == 401)
        let otherApp = try await Self.send("GET", statuses, bearer: try Self.token(key: key, bundleID: "com.example.other"))
        #expect(otherApp.status == 401)

        process.interrupt()
        #expect(await process.exited())
    }

    /// One bad combination of options and the words the user must see.
    struct BadOptions: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let message: String
        var testDescription: String { message }
    }

    /// `{key}`, `{p384}`, `{public}`, `{text}` and `{dir}` stand for files the test writes.
    static let badOptions: [BadOptions] = [
        BadOptions(arguments: ["simulator", "--key-id", "K"], message: "--key-id needs --server-api-key FILE"),
        BadOptions(arguments: ["simulator", "--issuer-id", "I"], message: "--issuer-id needs --server-api-key FILE"),
        BadOptions(arguments: ["simulator", "--server-api-key", "{key}", "--issuer-id", "I"], message: "--server-api-key needs --key-id"),
        BadOptions(arguments: ["simulator", "--server-api-key", "{key}", "--key-id", "K"], message: "--server-api-key needs --issuer-id"),
        BadOptions(
            arguments: ["simulator", "--server-api-key", "{dir}/missing.p8", "--key-id", "K", "--issuer-id", "I"],
            message: "missing.p8: no such file"),
        BadOptions(
            arguments: ["simulator", "--server-api-key", "{p384}", "--key-id", "K", "--issuer-id", "I"], message: "is not a P-256 private key"),
        BadOptions(
            arguments: ["simulator", "--server-api-key", "{public}", "--key-id", "K", "--issuer-id", "I"], message: "holds a public key"),
        BadOptions(arguments: ["simulator", "--server-api-key", "{text}", "--key-id", "K", "--issuer-id", "I"], message: "is not a PEM file"),
        BadOptions(arguments: ["simulator", "--server-api-key", "{dir}", "--key-id", "K", "--issuer-id", "I"], message: "is a directory"),
        BadOptions(
            arguments: ["serve", "--server-api-key", "{key}", "--key-id", "K", "--issuer-id", "I"],
            message: "--server-api-key, --key-id and --issuer-id configure the simulator's Server API and need --simulator"),
        BadOptions(arguments: ["serve", "--simulator", "--key-id", "K"], message: "--key-id needs --server-api-key FILE"),
        BadOptions(
            arguments: ["serve", "--simulator", "--server-api-key", "{p384}", "--key-id", "K", "--issuer-id", "I"],
            message: "is not a P-256 private key"),
    ]

    /// Each ends before anything starts (no port, no database), with status 64 and the reason on
    /// standard error.
    @Test(arguments: badOptions)
    func refusesBadOptionsClearly(_ bad: BadOptions) throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files: [String: String] = [
            "{key}": P256.Signing.PrivateKey().pemRepresentation,
            "{p384}": P384.Signing.PrivateKey().pemRepresentation,
            "{public}": P256.Signing.PrivateKey().publicKey.pemRepresentation,
            "{text}": "not a key\n",
        ]
        var arguments = bad.arguments.map { $0.replacingOccurrences(of: "{dir}", with: directory.path) }
        for (placeholder, contents) in files where arguments.contains(placeholder) {
            let file = directory.appendingPathComponent(String(placeholder.dropFirst().dropLast()) + ".p8")
            try Data(contents.utf8).write(to: file)
            arguments = arguments.map { $0 == placeholder ? file.path : $0 }
        }
        let output = try CLIProcess.run(arguments + ["--port", "0"])
        #expect(output.status == 64)
        #expect(output.standardError.contains(bad.message), "\(output.standardError)")
        #expect(output.standardOutput.isEmpty)
    }

    /// A Server API token as App Store Connect's documentation describes it.
    static func token(
        key: P256.Signing.PrivateKey, keyID: String = keyID, issuerID: String = issuerID, bundleID: String = bundleID
    ) throws -> String {
        struct Header: Encodable { let alg = "ES256"; let kid: String; let typ = "JWT" }
        struct Claims: Encodable { let iss: String; let iat: Int64; let exp: Int64; let aud = "appstoreconnect-v1"; let bid: String }
        let now = Int64(Date().timeIntervalSince1970)
        return try JWSSigning.sign(header: Header(kid: keyID), payload: Claims(iss: issuerID, iat: now, exp: now + 300, bid: bundleID), key: key)
    }

    struct MissingOutput: Error { let printed: String }

    /// Standard output up to and including `marker`.
    static func read(_ handle: FileHandle, until marker: String) async throws -> String {
        var text = ""
        while !text.contains(marker) {
            let chunk = handle.availableData
            if chunk.isEmpty { throw MissingOutput(printed: text) }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    static func send(_ method: String, _ url: URL, body: String? = nil, bearer: String? = nil) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body.map { Data($0.utf8) }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }
}

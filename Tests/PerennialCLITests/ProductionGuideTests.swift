import Crypto
import Foundation
import PerennialTestSupport
import PerennialLiveHarness
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// docs/production.md followed as an operator follows it, against `perennial simulator` as Apple:
/// the service unit's `ExecStart` starts the server, then every `sh` block of the page runs in the
/// page's order in a root made for the test. Only what names the operator's machine is rewritten:
/// the paths under /etc, /var and /usr/local (into that root), the PostgreSQL host and credentials
/// (the test's server), the restored database's name (made unique), and a port for each
/// `perennial serve` (the page leaves it to the configuration or the default).
@Suite(.enabled(if: ScratchDatabase.isAvailable && PostgresTools.path(of: "pg_dump") != nil, "set PERENNIAL_POSTGRES_URL and put pg_dump on PATH to run"))
struct ProductionGuideTests {
    static let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/production.md")

    /// The page's fenced blocks whose opening fence is "```" + `info`, in order (a closing fence
    /// is bare, as is the opening fence of a block of output).
    static func blocks(_ info: String, in text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        var inside = false
        for line in text.components(separatedBy: "\n") {
            guard line.hasPrefix("```") else {
                current?.append(line)
                continue
            }
            if inside, let lines = current { blocks.append(lines.joined(separator: "\n")) }
            current = !inside && line == "```" + info ? [] : nil
            inside.toggle()
        }
        return blocks
    }

    @Test func theGuideWorksAsWritten() async throws {
        let text = try String(contentsOf: Self.guide, encoding: .utf8)
        let shell = Self.blocks("sh", in: text)
        let unit = try #require(Self.blocks("ini", in: text).first)
        let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }?.dropFirst("ExecStart=".count))
        try #require(shell.count >= 8, "the page's sh blocks: \(shell)")

        try await ScratchDatabase.with { database in
            let root = try CLIProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            let machine = try Machine(root: root, postgres: database.url)
            defer { machine.stopEverything() }

            // Apple, and the configuration section 1 describes, pointing at it.
            let apple = try await machine.startApple()
            try machine.writeConfiguration(apple: apple)

            // Section 4: the service.
            try await machine.serve(String(execStart))
            try await machine.buy(user: "user@example.com", apple: apple)

            for block in shell {
                if block.contains("cp /var/backups") {
                    machine.stopServers()  // "To restore, stop the server and start it on the copy."
                }
                if block.contains("PERENNIAL_DATABASE_URL"), !machine.postgresMigrated {
                    // The PostgreSQL sections start from a deployment's database, migrated and in use.
                    try machine.run("perennial migrate --database \"$PERENNIAL_DATABASE_URL\"")
                    machine.postgresMigrated = true
                }
                try await machine.runBlock(block)
            }
            // Section 8 erased the user the page names; the restored SQLite database had bought.
            let export = try machine.run("perennial privacy export --config perennial.json --app demo --user 'user@example.com'", allowFailure: true)
            #expect(export.status == 1 && export.output.contains("nothing stored names the user user@example.com"), "\(export.output)")
        }
    }
}

/// The operator's machine made in a directory: /etc/perennial, /var/lib/perennial,
/// /var/backups/perennial and /usr/local/bin/perennial under `root`, and the processes started.
final class Machine: @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: one test drives a machine, one step at a time;
    // its mutable state (the processes, whether PostgreSQL was migrated) is never shared.
    let root: URL
    let postgres: URLComponents
    let port: Int
    var postgresMigrated = false
    private var apple: SimulatorProcess?
    private var servers: [ChildProcess] = []
    private let restoredName = "perennial_restored_" + UUID().uuidString.prefix(8).lowercased()

    init(root: URL, postgres: String) throws {
        self.root = root
        guard let components = URLComponents(string: postgres) else { throw CLIProcess.CLIError("bad PostgreSQL URL") }
        self.postgres = components
        port = try FreePort.loopback()
        for directory in ["etc/perennial", "var/lib/perennial", "var/backups/perennial", "usr/local/bin"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("usr/local/bin/perennial"), withDestinationURL: try CLIProcess.executable())
        _ = try CLIProcess.writeCatalog(in: root.appendingPathComponent("etc/perennial"))
    }

    var etc: URL { root.appendingPathComponent("etc/perennial") }

    /// A line of the guide as it runs here.
    func local(_ line: String) -> String {
        let host = postgres.host ?? "127.0.0.1"
        let credentials = "\(postgres.user ?? "postgres"):\(postgres.password ?? "")@\(host):\(postgres.port ?? 5432)"
        var line = line
            .replacingOccurrences(of: "/usr/local/bin/perennial", with: root.path + "/usr/local/bin/perennial")
            .replacingOccurrences(of: "/etc/perennial", with: root.path + "/etc/perennial")
            .replacingOccurrences(of: "/var/lib/perennial", with: root.path + "/var/lib/perennial")
            .replacingOccurrences(of: "/var/backups/perennial", with: root.path + "/var/backups/perennial")
            .replacingOccurrences(of: "perennial:secret@db.internal:5432", with: credentials)
            .replacingOccurrences(of: "--host=db.internal --username=postgres", with: "--host=\(host) --port=\(postgres.port ?? 5432) --username=\(postgres.user ?? "postgres")")
            .replacingOccurrences(of: "perennial_restored", with: restoredName)
        if line.contains("perennial serve") { line += " --port \(port)" }
        return line
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = root.path + "/usr/local/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["PERENNIAL_DATABASE_URL"] = postgres.string
        environment["PGPASSWORD"] = postgres.password
        return environment
    }

    /// Runs one line (or script) in a shell in /etc/perennial, where the guide's `perennial.json` is.
    @discardableResult
    func run(_ script: String, allowFailure: Bool = false) throws -> (status: Int32, output: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -e\n" + script]
        process.currentDirectoryURL = etc
        var environment = environment
        // Sections before PostgreSQL's use the configuration's SQLite database.
        if !script.contains("PERENNIAL_DATABASE_URL") && !script.contains("--no-migrate") { environment["PERENNIAL_DATABASE_URL"] = nil }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if !allowFailure, process.terminationStatus != 0 {
            throw CLIProcess.CLIError("`\(script)` exited \(process.terminationStatus):\n\(text)")
        }
        return (process.terminationStatus, text)
    }

    /// Runs a guide block line by line, each line as written but for ``local(_:)``; a `perennial
    /// serve` line is started and waited for until ready, as a service manager would.
    func runBlock(_ block: String) async throws {
        var script: [String] = []
        for line in block.split(separator: "\n").map(String.init) where !line.isEmpty {
            let code = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? line
            if code.trimmingCharacters(in: .whitespaces).hasPrefix("perennial serve") {
                if !script.isEmpty { try run(script.joined(separator: "\n")) }
                script = []
                try await serve(code)
            } else {
                script.append(local(code))
            }
        }
        if !script.isEmpty { try run(script.joined(separator: "\n")) }
    }

    /// Starts `perennial serve …` (a guide line) in the background and waits until it is ready.
    /// A server started before is stopped first, as a service manager restarts the service.
    func serve(_ line: String) async throws {
        stopServers()
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        let log = root.appendingPathComponent("serve-\(servers.count).log")
        process.arguments = ["-c", "exec " + local(line) + " > '\(log.path)' 2>&1"]
        process.currentDirectoryURL = root.appendingPathComponent("var/lib/perennial")
        var environment = environment
        if !line.contains("--no-migrate") { environment["PERENNIAL_DATABASE_URL"] = nil }
        process.environment = environment
        try process.run()
        servers.append(process)
        for _ in 0..<300 {
            if (try? await ServeCommandTests.get(URL(string: "http://127.0.0.1:\(port)/health/ready")!))?.0 == 200 { return }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CLIProcess.CLIError("`\(line)` did not become ready:\n\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// `perennial simulator` with a Server API key, sending notifications to the server's URL.
    func startApple() async throws -> URL {
        let key = etc.appendingPathComponent("SubscriptionKey_\(CheckCommandTests.keyID).p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: key)
        let simulator = try await SimulatorProcess.start(
            catalog: etc.appendingPathComponent("catalog.json"), rootsDirectory: etc, keyFile: key,
            notifyV2: "http://127.0.0.1:\(port)/apple/notifications/v2/demo")
        apple = simulator
        return simulator.url
    }

    /// /etc/perennial/perennial.json as section 1 maps App Store Connect's values into it (the
    /// simulator's root stands for Apple's, in a Sandbox-only app).
    func writeConfiguration(apple: URL) throws {
        let json = """
            {"port": \(port), "database": "sqlite:\(root.path)/var/lib/perennial/perennial.sqlite", "adminKey": "sk_guide",
             "apps": [{"id": "demo", "bundleId": "com.example.cli", "appAppleId": 1234567890, "catalog": "catalog.json",
             "environments": ["Sandbox"], "publicKeys": ["pk_guide"], "trustedRoots": ["jws-root.der"],
             "serverAPI": {"keyId": "\(CheckCommandTests.keyID)", "issuerId": "\(CheckCommandTests.issuerID)",
                           "privateKey": "file:SubscriptionKey_\(CheckCommandTests.keyID).p8", "baseURL": "\(apple.absoluteString)"}}]}
            """
        try Data(json.utf8).write(to: etc.appendingPathComponent("perennial.json"))
        try Data().write(to: etc.appendingPathComponent("secrets.env"))
    }

    /// The user buys on the device and the app posts the purchase.
    func buy(user: String, apple: URL) async throws {
        _ = try await SimulatorServerAPIKeyTests.send("POST", apple.appendingPathComponent("simulator/v1/accounts"), body: #"{"id": "\#(user)"}"#)
        let bought = try await SimulatorServerAPIKeyTests.send(
            "POST", apple.appendingPathComponent("simulator/v1/purchases"), body: #"{"account": "\#(user)", "productId": "cli.monthly"}"#)
        let signed = try #require(bought.json["signedTransaction"] as? String, "\(bought)")
        let path = "v1/subscribers/\(user.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? user)/transactions"
        let posted = try await SimulatorServerAPIKeyTests.send(
            "POST", URL(string: "http://127.0.0.1:\(port)/\(path)")!, body: #"{"signedTransaction": "\#(signed)"}"#, bearer: "pk_guide")
        try #require(posted.status == 200, "\(posted)")
    }

    func stopServers() {
        for process in servers where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    func stopEverything() {
        stopServers()
        apple?.stop()
        _ = try? run("dropdb --if-exists --host=\(postgres.host ?? "127.0.0.1") --port=\(postgres.port ?? 5432) --username=\(postgres.user ?? "postgres") \(restoredName)", allowFailure: true)
    }
}

import Crypto
import Foundation
import PerennialTestSupport
import PerennialLiveHarness
import PerennialPostgres
import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `perennial serve --simulator` as the README's quick start uses it: a purchase made on the
/// simulated device and posted to the server with the demo key unlocks the entitlement.
@Suite struct ServeSimulatorCommandTests {
    /// The repository root, where `Examples/catalog.json` is found.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func aPurchaseOnTheSimulatorPostedWithTheDemoKeyIsActive() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try FreePort.loopback()
        let simulatorPort = try FreePort.loopback()
        // The user's App Store Server API key: the simulator accepts it, the server signs with it.
        let key = P256.Signing.PrivateKey()
        let keyFile = directory.appendingPathComponent("key.p8")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        let adminKey = "sk_test_\(UUID().uuidString)"
        let process = ChildProcess()
        process.executableURL = try CLIProcess.executable()
        process.arguments = [
            "serve", "--simulator", "--port", String(port), "--simulator-port", String(simulatorPort),
            "--database", "sqlite:\(directory.appendingPathComponent("perennial.sqlite").path)",
            "--server-api-key", keyFile.path, "--key-id", SimulatorServerAPIKeyTests.keyID, "--issuer-id", SimulatorServerAPIKeyTests.issuerID,
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["PERENNIAL_ADMIN_KEY": adminKey]) { _, new in new }
        process.currentDirectoryURL = Self.repositoryRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let server = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let simulator = try #require(URL(string: "http://127.0.0.1:\(simulatorPort)"))
        var ready = false
        for _ in 0..<300 where !ready {
            let serverUp = (try? await ServeCommandTests.get(server.appendingPathComponent("health/ready")))?.0 == 200
            let simulatorUp = (try? await ServeCommandTests.get(simulator.appendingPathComponent("simulator/v1/clock")))?.0 == 200
            ready = serverUp && simulatorUp
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(ready)

        _ = try await Self.send("POST", simulator.appendingPathComponent("simulator/v1/accounts"), #"{"id":"alice","storefront":"USA"}"#)
        let bought = try await Self.send(
            "POST", simulator.appendingPathComponent("simulator/v1/purchases"),
            #"{"account":"alice","productId":"com.example.perennial.premium.monthly"}"#)
        let jws = try #require(bought.json["signedTransaction"] as? String)
        let posted = try await Self.send(
            "POST", server.appendingPathComponent("v1/subscribers/alice/transactions"), #"{"signedTransaction":"\#(jws)"}"#, bearer: "pk_demo")
        #expect(posted.status == 200)
        let entitlements = (posted.json["subscriber"] as? [String: Any])?["entitlements"] as? [String: Any]
        #expect((entitlements?["premium"] as? [String: Any])?["isActive"] as? Bool == true, "\(posted.json)")
        let refused = try await Self.send("GET", server.appendingPathComponent("v1/subscribers/alice"), nil, bearer: "pk_wrong")
        #expect(refused.status == 401)

        // A client outside the process calls the simulator's Server API with the user's key…
        let originalTransactionID = try #require(bought.json["originalTransactionId"] as? String)
        let statuses = try await Self.send(
            "GET", simulator.appendingPathComponent("inApps/v1/subscriptions/\(originalTransactionID)"), nil,
            bearer: try SimulatorServerAPIKeyTests.token(key: key, bundleID: "com.example.perennial"))
        #expect(statuses.status == 200)
        // …and the server's own Server API client, signing with the same key, is accepted too.
        let testNotification = try await Self.send(
            "POST", server.appendingPathComponent("admin/v1/apps/demo/test-notifications"), nil, bearer: adminKey)
        #expect(testNotification.status == 202)

        kill(process.processIdentifier, SIGTERM)
        #expect(await process.exited())
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.contains("pk_demo"))
        #expect(printed.contains("http://127.0.0.1:\(simulatorPort)/simulator/v1/purchases"))
        #expect(printed.contains("App Store Server API http://127.0.0.1:\(simulatorPort)"))
        #expect(printed.contains("kid \(SimulatorServerAPIKeyTests.keyID)  iss \(SimulatorServerAPIKeyTests.issuerID)  bid com.example.perennial"))
    }

    /// `serve --simulator` on a fresh PostgreSQL database seeds the demo: the seeding waits for
    /// the migrations (it raced them and lost, "relation \"evidence\" does not exist", leaving the
    /// dashboard empty until a restart).
    @Test(.enabled(if: ScratchDatabase.isAvailable)) func aFreshPostgreSQLDatabaseIsSeeded() async throws {
        try await ScratchDatabase.with { database in
            let directory = try CLIProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = directory.appendingPathComponent("serve.log")
            let process = try Self.serveSimulator(database: database.url, log: log)
            defer { if process.isRunning { process.terminate() } }
            // The first seeded evidence is enough (the whole seed takes a minute of both cores,
            // which starves the timing-sensitive tests running beside it).
            var text = ""
            var seeded = 0
            for _ in 0..<1_200 where seeded == 0 && !text.contains("seeding the demo app failed") {
                try await Task.sleep(for: .milliseconds(100))
                text = try String(contentsOf: log, encoding: .utf8)
                seeded = (try? await database.storage.evidenceCount()) ?? 0
            }
            #expect(seeded > 0 && !text.contains("seeding the demo app failed"), "\(text.suffix(2_000))")
            kill(process.processIdentifier, SIGTERM)
            #expect(await process.exited())
        }
    }

    /// A restart on the demo's database is not seeded again (a second seed would move every seeded
    /// purchase to the new day's dates and add its evidence beside the first's): the server says
    /// so and the evidence stays as it was.
    @Test func aDatabaseWithEvidenceIsNotSeededAgain() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("perennial.sqlite").path
        let storage = try SQLiteStorage(path: path)
        try await storage.migrate()
        for evidence in AnalyticsPopulation.evidence {
            _ = try await storage.apply(evidence, with: AnalyticsPopulation.applier, now: AnalyticsPopulation.at(4, 1))
        }
        let stored = try await storage.evidenceCount()
        #expect(stored > 0)

        let log = directory.appendingPathComponent("serve.log")
        let process = try Self.serveSimulator(database: "sqlite:\(path)", log: log)
        defer { if process.isRunning { process.terminate() } }
        var said = false
        for _ in 0..<600 where !said {
            said = (try String(contentsOf: log, encoding: .utf8)).contains("the demo app is not seeded again")
            if !said { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(said, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        #expect(try await storage.evidenceCount() == stored)
    }

    /// A scenario run against `serve --simulator` (docs/scenarios.md): signed with the server's
    /// simulator chain (`--pki`), every notification is taken; with a chain of its own, the server
    /// refuses each and the run fails saying so (it exited 0 with every delivery refused).
    @Test func aScenarioRunAgainstTheServerIsTakenWithItsChain() async throws {
        try await LoadCommandTests.withServe { server, _, pki in
            let scenario = Self.repositoryRoot.appendingPathComponent("Examples/scenarios/upgrade.json").path
            let target = server.appendingPathComponent("apple/notifications/v2/demo").absoluteString

            let v1 = server.appendingPathComponent("apple/notifications/v1/demo").absoluteString
            let taken = try CLIProcess.run(
                ["simulator", "run", scenario, "--notify-v2", target, "--notify-v1", v1, "--shared-secret", "sandbox-shared-secret", "--pki", pki])
            #expect(taken.status == 0, "\(taken.standardError)")
            #expect(taken.standardOutput.contains("deliver v2 DID_CHANGE_RENEWAL_PREF/UPGRADE  attempt 1"))
            #expect(taken.standardOutput.contains("deliver v1 DID_CHANGE_RENEWAL_PREF/UPGRADE  attempt 1"))

            // A second run creates its purchases anew: under ids of its own, not the first run's.
            let again = try CLIProcess.run(["simulator", "run", scenario, "--notify-v2", target, "--pki", pki])
            #expect(again.status == 0, "\(again.standardError)")
            let ids = [taken, again].map { run in Set(run.standardOutput.split(separator: " ").filter { $0.count == 16 && $0.hasPrefix("3") && $0.allSatisfy(\.isNumber) }) }
            #expect(!ids[0].isEmpty && !ids[1].isEmpty && ids[0].isDisjoint(with: ids[1]), "\(ids)")

            let noSecret = try CLIProcess.run(["simulator", "run", scenario, "--notify-v1", v1, "--pki", pki])
            #expect(noSecret.status == 1 && noSecret.standardError.contains("the first: v1 SUBSCRIBED/INITIAL_BUY: HTTP 401"), "\(noSecret.standardError)")

            let refused = try CLIProcess.run(["simulator", "run", scenario, "--notify-v2", target])
            #expect(refused.status == 1)
            #expect(
                refused.standardError.contains("3 of 3 deliveries were never accepted; the first: v2 SUBSCRIBED/INITIAL_BUY: HTTP 422"),
                "\(refused.standardError)")
        }
    }

    /// `serve --simulator` on `database`, free ports, its log in `log`, started.
    private static func serveSimulator(database: String, log: URL) throws -> ChildProcess {
        try Data().write(to: log)
        let process = ChildProcess()
        process.executableURL = try CLIProcess.executable()
        process.arguments = [
            "serve", "--simulator", "--port", String(try FreePort.loopback()), "--simulator-port", String(try FreePort.loopback()),
            "--database", database,
        ]
        process.currentDirectoryURL = repositoryRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        return process
    }

    private static func send(
        _ method: String, _ url: URL, _ body: String?, bearer: String? = nil
    ) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }
}

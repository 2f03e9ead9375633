import Foundation
import PerennialCore
import PerennialSQLite
import PerennialStorage
import PerennialTestSupport
import Testing

/// `perennial import` as an operator runs it, Apple played by `perennial simulator`: a dry run
/// counts without writing, an import killed with SIGKILL at random points (twenty times at least)
/// and run again ends as an import never killed, and a finished import prints its report again.
@Suite struct ImportCommandTests {
    static let customers = 5

    @Test func anImportKilledAtRandomPointsEndsAsOneNeverKilled() async throws {
        let setup = try CheckCommandTests.Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let roots = setup.directory.appendingPathComponent("roots")
        let simulator = try await SimulatorProcess.start(
            catalog: setup.directory.appendingPathComponent("catalog.json"), rootsDirectory: roots, keyFile: setup.keyFile)
        defer { simulator.stop() }
        let config = try setup.configuration(roots: ["\(roots.path)/jws-root.der"], serverAPI: simulator.url)
        var rows = ["app_user_id,transaction_id"]
        for index in 0..<Self.customers {
            _ = try await SimulatorServerAPIKeyTests.send(
                "POST", simulator.url.appendingPathComponent("simulator/v1/accounts"), body: #"{"id": "buyer-\#(index)", "storefront": "USA"}"#)
            let bought = try await SimulatorServerAPIKeyTests.send(
                "POST", simulator.url.appendingPathComponent("simulator/v1/purchases"), body: #"{"account": "buyer-\#(index)", "productId": "cli.monthly"}"#)
            let signed = try #require(bought.json["signedTransaction"] as? String, "\(bought)")
            rows.append("user-\(index),\(try Self.transactionID(of: signed))")
        }
        rows.append("nobody,2000000999999999")
        let file = setup.directory.appendingPathComponent("subscribers.csv")
        try Data(rows.joined(separator: "\n").utf8).write(to: file)
        let unpaced = ["--history-per-second", "0", "--statuses-per-second", "0"]
        func arguments(_ database: String, _ extra: [String] = []) -> [String] {
            ["import", "--config", config.path, "--database", "sqlite:\(database)", "--format", "transactions", file.path, "--rows-at-once", "1"]
                + unpaced + extra
        }

        let dry = try CLIProcess.run(arguments(setup.directory.appendingPathComponent("dry.sqlite").path, ["--dry-run"]))
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.hasPrefix("dry run: \(Self.customers + 1) rows, \(Self.customers + 1) to ask Apple about"), "\(dry.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: setup.directory.appendingPathComponent("dry.sqlite").path), "a dry run writes nothing")

        let whole = setup.directory.appendingPathComponent("whole.sqlite").path
        let started = ContinuousClock.now
        let once = try CLIProcess.run(arguments(whole))
        // A kill lands anywhere in a whole run's time; an import that finishes before twenty kills
        // starts again on a new database, so however fast the machine, every round is killed at
        // random points, resumed to its end and compared (a fixed count of kills on one database
        // once ended after 19, the import done).
        let latest = max(20, Int((ContinuousClock.now - started) / .milliseconds(1)))
        #expect(once.status == 0, "\(once.standardError)")
        #expect(once.standardOutput.contains("  imported: \(Self.customers)\n"), "\(once.standardOutput)")
        #expect(once.standardOutput.contains("line \(Self.customers + 2): notFound: "), "\(once.standardOutput)")

        var kills = 0
        var rounds = 0
        var generator = SystemRandomNumberGenerator()
        let once1 = try SQLiteStorage(path: whole)
        while kills < 20 && rounds < 100 {
            rounds += 1
            let killed = setup.directory.appendingPathComponent("killed-\(rounds).sqlite").path
            while true {
                let process = ChildProcess()
                process.executableURL = try CLIProcess.executable()
                process.arguments = arguments(killed)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...latest, using: &generator)))
                guard process.isRunning else {
                    _ = await process.exited(within: .seconds(30))
                    break
                }
                kill(process.processIdentifier, SIGKILL)
                kills += 1
                _ = await process.exited(within: .seconds(30))
            }
            let last = try CLIProcess.run(arguments(killed))
            #expect(last.status == 0, "\(last.standardError)")
            #expect(last.standardOutput.contains("finished after \(Self.customers + 1) of \(Self.customers + 1) rows"), "\(last.standardOutput)")
            #expect(last.standardOutput.contains("  notFound: 1\n"), "\(last.standardOutput)")

            let again1 = try SQLiteStorage(path: killed)
            for index in 0..<Self.customers {
                let user = AppUserID("user-\(index)")
                let expected = try await once1.records(ownedBy: user, appBundleID: "com.example.cli").evidence
                let resumed = try await again1.records(ownedBy: user, appBundleID: "com.example.cli").evidence
                #expect(!expected.transactions.isEmpty)
                #expect(resumed.transactions.map(\.transactionID) == expected.transactions.map(\.transactionID), "\(user)")
                #expect(resumed.renewalInfos.map(\.originalTransactionID) == expected.renewalInfos.map(\.originalTransactionID), "\(user)")
            }
            #expect(try await again1.evidenceCount() == (try await once1.evidenceCount()))
            let events = { (storage: SQLiteStorage) in try await storage.pendingOutbox(limit: 1_000).map(\.event.kind).sorted() }
            #expect(try await events(again1) == (try await events(once1)), "no webhook event twice")
        }
        #expect(kills >= 20)
    }

    /// The transaction id in a StoreKit 2 JWS's payload.
    static func transactionID(of signed: String) throws -> String {
        var payload = String(signed.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let json = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: payload))) as? [String: Any]
        return try #require(json?["transactionId"] as? String)
    }
}

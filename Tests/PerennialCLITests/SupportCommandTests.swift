import Foundation
import PerennialAppStore
import PerennialSQLite
import PerennialStorage
import PerennialTestSupport
import Testing

/// `perennial support set-app-account-token` against `perennial simulator` as Apple: a purchase
/// posted without the app's token is bound at Apple to its owner's token from the shell, as the
/// admin API binds it (the same action, `SetAppAccountToken`), with the same timeline entry.
@Suite struct SupportCommandTests {
    @Test func anOperatorBindsAPurchaseAtAppleFromTheShell() async throws {
        let setup = try CheckCommandTests.Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let simulator = try await setup.startSimulator()
        defer { simulator.stop() }
        let config = try setup.configuration(roots: [setup.roots.appendingPathComponent("jws-root.der").path], serverAPI: simulator.url)
        let databasePath = setup.directory.appendingPathComponent("p.sqlite").path
        let server = try await ServeProcess.start(config: config, database: "sqlite:\(databasePath)", logDirectory: setup.directory, name: "support")
        defer { server.stop() }

        // Alice buys in the App Store, without the app's token (an offer code, say); her app posts it for u1.
        let send = SimulatorServerAPIKeyTests.send
        _ = try await send("POST", simulator.url.appendingPathComponent("simulator/v1/accounts"), #"{"id": "alice", "storefront": "USA"}"#, nil)
        let bought = try await send("POST", simulator.url.appendingPathComponent("simulator/v1/purchases"), #"{"account": "alice", "productId": "cli.monthly"}"#, nil)
        let jws = try #require(bought.json["signedTransaction"] as? String)
        let purchase = try #require(bought.json["originalTransactionId"] as? String)
        let posted = try await send("POST", server.url.appendingPathComponent("v1/subscribers/u1/transactions"), #"{"signedTransaction": "\#(jws)"}"#, "pk_cli")
        #expect(posted.status == 200)
        let token = try #require(try await send("GET", server.url.appendingPathComponent("v1/subscribers/u1/app-account-token"), nil, "pk_cli").json["appAccountToken"] as? String)

        let run = try CLIProcess.run([
            "support", "set-app-account-token", "--config", config.path, "--purchase", purchase, "--reason", "ticket 8", "--operator-name", "ops",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "purchase \(purchase) of u1 now carries app account token \(token) at Apple\n")

        // Apple signs the token now: the device's transaction carries it.
        let entitlements = try await send("GET", simulator.url.appendingPathComponent("simulator/v1/accounts/alice/entitlements"), nil, nil)
        let signed = try #require((entitlements.json["signedTransactions"] as? [String])?.first)
        let payload = try JSONSerialization.jsonObject(with: try JWSDecoding.unverifiedPayload(of: signed)) as? [String: Any]
        #expect((payload?["appAccountToken"] as? String).flatMap(UUID.init(uuidString:)) == UUID(uuidString: token))
        // The timeline names the operator, the action and the reason, as the admin API's does.
        let storage = try SQLiteStorage(path: databasePath)
        let actions = try await storage.timeline(of: "u1", appBundleID: "com.example.cli").compactMap(\.entry.detail.action)
        #expect(actions.contains(AdminAction(admin: "ops", action: "setAppAccountToken", reason: "ticket 8")))

        // A purchase nobody owns: an error naming it, nothing asked of Apple.
        let unknown = try CLIProcess.run(["support", "set-app-account-token", "--config", config.path, "--purchase", "999"])
        #expect(unknown.status == 1 && unknown.standardError.contains("no purchase 999 bound to a user of app cli"), "\(unknown.standardError)")
    }
}

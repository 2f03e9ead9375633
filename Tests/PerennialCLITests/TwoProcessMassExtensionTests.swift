import Crypto
import Foundation
import Testing

/// Two `perennial serve` processes on one PostgreSQL database, Apple played by `perennial
/// simulator`: the process an operator asked for a mass extension is killed (SIGKILL) before it
/// followed the request, and the other process follows it and applies Apple's result. The
/// follow-up used to be a task of the asking process, which died with it.
@Suite(.enabled(if: ScratchDatabase.isAvailable))
struct TwoProcessMassExtensionTests {
    static let adminKey = "sk_mass_\(UUID().uuidString)"

    @Test func theOtherProcessFinishesAMassExtensionWhoseRequesterWasKilled() async throws {
        try await ScratchDatabase.with { database in
            let setup = try CheckCommandTests.Setup()
            defer { try? FileManager.default.removeItem(at: setup.directory) }
            let simulator = try await setup.startSimulator()
            defer { simulator.stop() }
            let apple = simulator.url

            // The requester looks for due requests once a minute (so it is killed before it does),
            // the survivor every 200 ms.
            func config(_ name: String, claimIntervalSeconds: Double) throws -> URL {
                let file = setup.directory.appendingPathComponent("\(name).json")
                let json = """
                    {"adminKey": "\(Self.adminKey)", "logLevel": "notice",
                     "massExtensions": {"pollIntervalSeconds": 1, "leaseSeconds": 5, "claimIntervalSeconds": \(claimIntervalSeconds)},
                     "apps": [{"id": "cli", "bundleId": "com.example.cli", "catalog": "\(setup.directory.path)/catalog.json",
                     "environments": ["Sandbox"], "publicKeys": ["pk_cli"], "trustedRoots": ["\(setup.roots.path)/jws-root.der"],
                     "serverAPI": {"keyId": "\(CheckCommandTests.keyID)", "issuerId": "\(CheckCommandTests.issuerID)",
                                   "privateKey": "file:\(setup.keyFile.path)", "baseURL": "\(apple.absoluteString)"}}]}
                    """
                try Data(json.utf8).write(to: file)
                return file
            }
            let requester = try await ServeProcess.start(
                config: try config("requester", claimIntervalSeconds: 60), database: database.url, logDirectory: setup.directory, name: "requester")
            defer { requester.stop() }
            let survivor = try await ServeProcess.start(
                config: try config("survivor", claimIntervalSeconds: 0.2), database: database.url, logDirectory: setup.directory, name: "survivor")
            defer { survivor.stop() }

            // Alice bought a month on the device, and her app posted it.
            let account = try await SimulatorServerAPIKeyTests.send(
                "POST", apple.appendingPathComponent("simulator/v1/accounts"), body: #"{"id": "alice", "storefront": "USA"}"#)
            #expect(account.status == 201 || account.status == 200)
            let bought = try await SimulatorServerAPIKeyTests.send(
                "POST", apple.appendingPathComponent("simulator/v1/purchases"), body: #"{"account": "alice", "productId": "cli.monthly"}"#)
            let signed = try #require(bought.json["signedTransaction"] as? String, "\(bought)")
            let posted = try await SimulatorServerAPIKeyTests.send(
                "POST", requester.url.appendingPathComponent("v1/subscribers/alice/transactions"), body: #"{"signedTransaction": "\#(signed)"}"#,
                bearer: "pk_cli")
            let before = try #require(Self.expiry(posted.json), "\(posted)")

            let path = "admin/v1/apps/cli/products/cli.monthly/mass-extensions"
            let requested = try await SimulatorServerAPIKeyTests.send(
                "POST", requester.url.appendingPathComponent(path), body: #"{"extendByDays": 7, "extendReasonCode": 3, "reason": "outage"}"#,
                bearer: Self.adminKey)
            #expect(requested.status == 202, "\(requested.json)\n\(requester.logText)")
            let id = try #require(requested.json["requestIdentifier"] as? String)
            await requester.crash()

            var status: [String: Any] = [:]
            for _ in 0..<150 {
                status = try await SimulatorServerAPIKeyTests.send("GET", survivor.url.appendingPathComponent("\(path)/\(id)"), bearer: Self.adminKey).json
                if (status["perennial"] as? [String: Any])?["state"] as? String == "applied" { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect((status["perennial"] as? [String: Any])?["state"] as? String == "applied", "\(status)\n\(survivor.logText)")
            let read = try await SimulatorServerAPIKeyTests.send("GET", survivor.url.appendingPathComponent("v1/subscribers/alice"), bearer: "pk_cli")
            // Seven days of the simulator's 5-minute sandbox month (10 s a day).
            #expect(Self.expiry(read.json) == before.addingTimeInterval(7 * 10), "\(read.json)")
        }
    }

    /// The expiry of the subscriber's one subscription in a subscriber answer.
    static func expiry(_ answer: [String: Any]) -> Date? {
        let subscriptions = (answer["subscriber"] as? [String: Any])?["subscriptions"] as? [[String: Any]]
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (subscriptions?.first?["expiresDate"] as? String).flatMap(format.date(from:))
    }
}

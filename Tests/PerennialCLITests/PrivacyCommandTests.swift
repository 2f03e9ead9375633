import Foundation
import PerennialCore
import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// `perennial privacy export|erase` as an operator runs them on the server's database: the export
/// prints the user's data as JSON, the erasure says what it did, and both refuse an unknown user.
@Suite struct PrivacyCommandTests {
    private typealias F = ContractFixture
    private static let catalogJSON = """
        {
          "apps": [{ "bundleId": "com.example.perennial" }],
          "subscriptionGroups": [{ "id": "20000001", "products": [{ "id": "premium.monthly", "level": 1, "duration": "P1M" }] }],
          "entitlements": [{ "id": "premium", "products": ["premium.monthly"] }]
        }
        """

    @Test func anOperatorExportsThenErasesAUser() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("perennial.sqlite").path
        let storage = try SQLiteStorage(path: path)
        try await storage.migrate()
        let user: AppUserID = "team/alice@example.com"
        let purchase = EvidenceRecords(transactions: [F.transaction("1000", original: "1000", purchased: 0)])
        _ = try await storage.apply(F.evidence("k1", by: user, purchase), with: F.applier(), now: F.day(1))
        let token = try await storage.appAccountToken(for: user, appBundleID: F.bundleID)
        try Data(Self.catalogJSON.utf8).write(to: directory.appendingPathComponent("catalog.json"))
        let config = directory.appendingPathComponent("perennial.json")
        try Data(
            #"{"apps": [{"id": "demo", "bundleId": "\#(F.bundleID)", "catalog": "catalog.json", "environments": ["Xcode"]}], "database": "sqlite:\#(path)"}"#
                .utf8
        ).write(to: config)

        let export = try CLIProcess.run(["privacy", "export", "--config", config.path, "--user", user.rawValue])
        #expect(export.status == 0, "\(export.standardError)")
        let json = try export.json()
        #expect(json["appUserId"] as? String == user.rawValue && json["appAccountToken"] as? String == token.uuidString)
        #expect((json["purchases"] as? [[String: Any]])?.isEmpty == false)

        let erase = try CLIProcess.run(["privacy", "erase", "--config", config.path, "--user", user.rawValue, "--reason", "ticket 7", "--operator-name", "ops"])
        #expect(erase.status == 0, "\(erase.standardError)")
        #expect(erase.standardOutput.hasPrefix("erased: ") && erase.standardOutput.contains("purchases unbound"), "\(erase.standardOutput)")
        #expect(try await storage.personalData(of: user, appBundleID: F.bundleID) == nil)
        #expect(try await storage.appUser(forAppAccountToken: token, appBundleID: F.bundleID) == nil)

        // Again, or for a user nobody stored: a runtime failure naming the user, nothing changed.
        let again = try CLIProcess.run(["privacy", "erase", "--config", config.path, "--user", user.rawValue])
        #expect(again.status == 1 && again.standardError == "Error: nothing stored names the user \(user.rawValue) in this app\n", "\(again.standardError)")
        let unknown = try CLIProcess.run(["privacy", "export", "--config", config.path, "--user", "nobody"])
        #expect(unknown.status == 1 && unknown.standardError.contains("nothing stored names the user nobody"), "\(unknown.standardError)")
    }
}

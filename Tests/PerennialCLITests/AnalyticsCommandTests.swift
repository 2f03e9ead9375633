import Foundation
import PerennialCore
import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// `perennial analytics rebuild` on a database the applies filled: it reads every subscription
/// with its app's catalog from the configuration and finds the counters the applies kept.
@Suite struct AnalyticsCommandTests {
    private typealias P = AnalyticsPopulation

    @Test func rebuildFindsTheCountersTheAppliesKept() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("perennial.sqlite").path
        let storage = try SQLiteStorage(path: path)
        try await storage.migrate()
        for evidence in P.evidence.reversed() {
            _ = try await storage.apply(evidence, with: P.applier, now: P.at(4, 1))
        }
        let request = AnalyticsCounterRequest(appBundleID: P.bundleID, environment: .production, dimension: .product, fromDay: 0, throughDay: 100_000)
        let kept = try await storage.analyticsCounters(request)
        #expect(!kept.isEmpty)

        try Data(P.catalogJSON.utf8).write(to: directory.appendingPathComponent("catalog.json"))
        let config = directory.appendingPathComponent("perennial.json")
        try Data(
            #"{"apps": [{"id": "analytics", "bundleId": "com.example.analytics", "catalog": "catalog.json", "environments": ["Xcode"]}]}"#.utf8
        ).write(to: config)
        let output = try CLIProcess.run(["analytics", "rebuild", "--config", config.path, "--database", "sqlite:\(path)"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("from 7 subscriptions"), "\(output.standardOutput)")
        let rebuilt = try await storage.analyticsCounters(request)
        #expect(Set(rebuilt) == Set(kept))
    }

    @Test func rebuildNeedsAUsableConfiguration() throws {
        let output = try CLIProcess.run(["analytics", "rebuild", "--config", "/nonexistent/perennial.json"])
        #expect(output.status != 0)
        #expect(output.standardError.contains("perennial.json"))
    }
}

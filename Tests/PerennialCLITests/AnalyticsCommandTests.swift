import Foundation
import PerennialCore
import PerennialSQLite
import PerennialStorage
import PerennialStorageContract
import Testing

/// `perennial analytics rebuild` on a database the applies filled: it reads every subscription
/// with its app's catalog from the configuration and finds the counters the applies kept; it keeps
/// the counters of an app the configuration does not name.
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
        /// A configuration of one app with the population's catalog, and the rebuild's output with it.
        func rebuild(appID: String, bundleID: String, database: String = path) throws -> CLIProcess.Output {
            let config = directory.appendingPathComponent("\(appID).json")
            try Data(
                #"{"apps": [{"id": "\#(appID)", "bundleId": "\#(bundleID)", "catalog": "catalog.json", "environments": ["Xcode"]}]}"#.utf8
            ).write(to: config)
            return try CLIProcess.run(["analytics", "rebuild", "--config", config.path, "--database", "sqlite:\(database)"])
        }
        let output = try rebuild(appID: "analytics", bundleID: P.bundleID)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("from 7 subscriptions"), "\(output.standardOutput)")
        let rebuilt = try await storage.analyticsCounters(request)
        #expect(Set(rebuilt) == Set(kept))

        // A configuration without the app (another file, a typo) keeps its counters and names it.
        let skipped = try rebuild(appID: "other", bundleID: "com.example.other")
        #expect(skipped.status == 0, "\(skipped.standardError)")
        #expect(skipped.standardOutput.contains("from 0 subscriptions"), "\(skipped.standardOutput)")
        #expect(skipped.standardError.contains("kept the counters of com.example.analytics (7 subscriptions)"), "\(skipped.standardError)")
        #expect(Set(try await storage.analyticsCounters(request)) == Set(kept))

        // A mistyped path is refused, not created empty and "rebuilt".
        let missing = directory.appendingPathComponent("perenial.sqlite").path
        let mistyped = try rebuild(appID: "analytics", bundleID: P.bundleID, database: missing)
        // A runtime failure, not a usage error: the reason alone, status 1.
        #expect(mistyped.status == 1)
        #expect(mistyped.standardError == "Error: cannot open the SQLite database \(missing): No such file or directory\n", "\(mistyped.standardError)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func rebuildNeedsAUsableConfiguration() throws {
        let output = try CLIProcess.run(["analytics", "rebuild", "--config", "/nonexistent/perennial.json"])
        #expect(output.status != 0)
        #expect(output.standardError.contains("perennial.json"))
    }
}

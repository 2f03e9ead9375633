import ArgumentParser
import Foundation
import Logging
import PerennialCore
import PerennialPostgres
import PerennialServer
import PerennialSQLite
import PerennialStorage

/// `perennial analytics rebuild`: recomputes the analytics counters from the stored records alone
/// (docs/analytics.md), e.g. after a catalog's durations or prices changed.
struct AnalyticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics",
        abstract: "Maintain the analytics counters behind the metrics API and the dashboard.",
        subcommands: [Rebuild.self]
    )

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute the configured apps' analytics counters from the stored records.",
            discussion: """
                Reads every subscription of the configured apps with the catalog of its app and \
                replaces those apps' counters by their sum. The counters of an \
                app the configuration does not name are kept as they are, and the app is named on \
                standard error. Safe while the server runs: applies go on while the records are \
                read, and keep the changes they make meanwhile (docs/analytics.md).
                """
        )

        @Option(help: "JSON configuration file (see docs/configuration.md).")
        var config: String?

        @Option(help: "sqlite:PATH (default sqlite:./perennial.sqlite) or postgres://user:password@host:port/database.")
        var database: String?

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            var configuration = try ConfigurationLoader.load(file: config.map { URL(fileURLWithPath: $0) }, environment: environment)
            if let database { configuration.databaseURL = database }
            var facts: [String: SubscriptionFacts] = [:]
            for app in configuration.apps {
                facts[app.bundleID] = SubscriptionFacts(catalog: try app.catalog.load(app: app.id))
            }
            let started = ContinuousClock.now
            let result: AnalyticsRebuild
            switch try DatabaseURL(configuration.databaseURL) {
            case .sqlite(let path):
                // A mistyped path must not become a new, empty database that is "rebuilt".
                guard FileManager.default.fileExists(atPath: path) else { throw FileAccessError("open the SQLite database", path, POSIXError(.ENOENT)) }
                let storage = try SQLiteStorage(path: path)
                try await storage.migrate()
                result = try await storage.rebuildAnalytics(apps: facts)
            case .postgres(let url):
                try await PostgresStorage.checkConnection(url: url)
                let storage = PostgresStorage(
                    configuration: try PostgresStorage.configuration(url: url), logger: Logger(label: "perennial.postgres"))
                let pool = Task { await storage.run() }
                defer { pool.cancel() }
                try await storage.migrate()
                result = try await storage.rebuildAnalytics(apps: facts)
            }
            let elapsed = (ContinuousClock.now - started).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            print("rebuilt \(result.rows) counter rows from \(result.subscriptions) subscriptions in \(String(format: "%.2f", seconds)) s")
            for (bundleID, subscriptions) in result.unknownApps.sorted(by: { $0.key < $1.key }) {
                FileHandle.standardError.write(
                    Data("kept the counters of \(bundleID) (\(subscriptions) subscriptions): no app of the configuration has this bundle id\n".utf8))
            }
        }
    }
}

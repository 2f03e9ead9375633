import ArgumentParser
import Foundation
import PerennialCore
import PerennialServer
import PerennialStorage

/// `perennial analytics rebuild`: recomputes the analytics counters from the stored records alone
/// (docs/analytics.md), e.g. after a catalog's durations or prices changed.
struct AnalyticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics",
        abstract: "Maintain the analytics counters behind the analytics API and the dashboard.",
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

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let configuration = try options.configuration()
            var facts: [String: SubscriptionFacts] = [:]
            for app in configuration.apps {
                facts[app.bundleID] = SubscriptionFacts(catalog: try app.catalog.load(app: app.id), now: Date())
            }
            let started = ContinuousClock.now
            // A mistyped path must not become a new, empty database that is "rebuilt".
            let result = try await DatabaseURL(configuration.databaseURL).withStorage(createMissingFile: false) { storage in
                try await storage.migrate()
                let rebuild = try await storage.rebuildAnalytics(apps: facts)
                try await storage.recordAnalyticsDefinitions(SubscriptionFacts.definitions)
                return rebuild
            }
            print("rebuilt \(result.rows) counter rows from \(result.subscriptions) subscriptions in \((ContinuousClock.now - started).inSeconds)")
            for (bundleID, subscriptions) in result.unknownApps.sorted(by: { $0.key < $1.key }) {
                FileHandle.standardError.write(
                    Data("kept the counters of \(bundleID) (\(subscriptions) subscriptions): no app of the configuration has this bundle id\n".utf8))
            }
        }
    }
}

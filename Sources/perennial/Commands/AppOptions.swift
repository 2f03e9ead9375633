import ArgumentParser
import Foundation
import Logging
import PerennialAppStore
import PerennialServer
import PerennialStorage

/// `--config FILE --database URL --app ID`: one app of the configuration on the server's
/// database, for the commands that act for an app as the admin API does.
struct AppOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @Option(help: "The app's id in the configuration (optional when it has one app).")
    var app: String?

    /// Runs `body` with the app's evidence pipeline on the database, migrated. `transport` is how
    /// the app's clients reach Apple: ``OfflineTransport`` for a command that never calls it.
    func withPipeline<T>(transport: any AppStoreHTTPTransport, label: String, _ body: (EvidencePipeline) async throws -> T) async throws -> T {
        try await withDependencies(transport: transport, label: label) { dependencies, app in try await body(dependencies.pipeline(for: app)) }
    }

    /// Runs `body` with what the server's actions run on — the configured apps on the database,
    /// migrated — and the app chosen, for a command that performs an operator's action.
    func withDependencies<T>(
        transport: any AppStoreHTTPTransport, label: String, _ body: (ServerDependencies, AppContext) async throws -> T
    ) async throws -> T {
        let configuration = try database.configuration()
        let apps = try AppRegistry(configuration: configuration, environment: ProcessInfo.processInfo.environment, transport: transport)
        let chosen = try apps.chosen(app)
        return try await DatabaseURL(configuration.databaseURL).withStorage(createMissingFile: false) { storage in
            try await storage.migrate()
            return try await body(ServerDependencies(apps: apps, storage: storage, logger: Logger(label: label)), chosen)
        }
    }
}

/// `--operator-name NAME --reason TEXT`: who acts and why, for the timeline entry an action leaves.
struct OperatorOptions: ParsableArguments {
    @Option(help: "Who asks, for the timeline (default: the login name).")
    var operatorName = ProcessInfo.processInfo.environment["USER"].map { "cli:\($0)" } ?? "cli"

    @Option(help: "Why (a ticket), for the timeline.")
    var reason: String?

    /// The key a shell acts with: whoever can read the configuration holds every admin key, so the
    /// full scope, under the operator's name.
    var actingKey: ActingKey { ActingKey(name: operatorName, scope: .full) }
}

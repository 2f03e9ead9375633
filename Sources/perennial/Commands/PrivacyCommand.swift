import ArgumentParser
import Foundation
import Logging
import PerennialServer
import PerennialStorage

/// `perennial privacy export|erase`: a user's data-subject request answered from the database, as
/// the admin API answers it (the same ``PersonalDataRequests``), for an operator at a shell or a
/// script working through a queue of requests, with or without a server running.
struct PrivacyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Export or erase one app user's personal data.",
        discussion: "What goes and what stays: docs/production.md, \"Privacy\".",
        subcommands: [Export.self, Erase.self]
    )

    /// The user and app every request names, and where the database is.
    struct RequestOptions: ParsableArguments {
        @OptionGroup var database: DatabaseOptions

        @Option(help: "The app's id in the configuration (optional when it has one app).")
        var app: String?

        @Option(help: "The app user id, as the app names the user.")
        var user: String

        /// Runs `body` with the request's app and the database, migrated.
        func withRequests<T>(_ body: (PersonalDataRequests, AppUserID) async throws -> T) async throws -> T {
            let configuration = try database.configuration()
            let apps = try AppRegistry(configuration: configuration, environment: ProcessInfo.processInfo.environment, transport: OfflineTransport())
            let chosen = try apps.chosen(app)
            guard !user.isEmpty else { throw ValidationError("--user must not be empty") }
            return try await DatabaseURL(configuration.databaseURL).withStorage(createMissingFile: false) { storage in
                try await storage.migrate()
                let pipeline = EvidencePipeline(
                    app: chosen, storage: storage, webhookWakeUp: WebhookWakeUp(), metrics: ServerMetrics(), logger: Logger(label: "perennial.privacy"))
                return try await body(PersonalDataRequests(pipeline: pipeline), AppUserID(user))
            }
        }
    }

    /// The user names nobody stored in the app.
    struct UnknownUser: Error, CustomStringConvertible {
        let user: String
        var description: String { "nothing stored names the user \(user) in this app" }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print everything stored that names the user, as JSON (the admin API's export).")

        @OptionGroup var request: RequestOptions

        func run() async throws {
            try await request.withRequests { requests, user in
                guard let export = try await requests.export(user, now: Date()) else { throw UnknownUser(user: user.rawValue) }
                try JSONOutput.print(export)
            }
        }
    }

    struct Erase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Erase the user's personal data; Apple's records of the purchases and the analytics stay.")

        @Option(help: "Who asks, for the timeline (default: the login name).")
        var operatorName = ProcessInfo.processInfo.environment["USER"].map { "cli:\($0)" } ?? "cli"

        @Option(help: "Why (a ticket), for the timeline.")
        var reason: String?

        @OptionGroup var request: RequestOptions

        func run() async throws {
            try await request.withRequests { requests, user in
                guard let erased = try await requests.erase(user, by: operatorName, reason: reason, now: Date()) else {
                    throw UnknownUser(user: user.rawValue)
                }
                print(
                    "erased: \(erased.releasedPurchases.count) purchases unbound, \(erased.deletedRows) rows deleted, "
                        + "\(erased.anonymizedEvidence) evidence kept without the user, \(erased.rewrittenMentions) mentions by other users rewritten")
            }
        }
    }
}

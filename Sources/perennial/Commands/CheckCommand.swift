import ArgumentParser
import Foundation
import Logging
import PerennialServer
import PerennialStorage

/// `perennial check --config FILE [--online]`: what the server would refuse or get wrong, told
/// before it goes live, each finding with what to do and an exit code of its kind.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a configuration (and, with --online, that Apple can reach the server) before going live.",
        discussion: """
            Offline: the file loads, every app's keys and secrets resolve, key ids and issuer ids \
            have App Store Connect's form, every trusted root is one of Apple's by fingerprint (a \
            non-Apple root is an error for an app that accepts Production), and the database \
            answers. Online: each app with a Server API key asks Apple for a test notification and \
            waits for Apple to report that it reached the server, which must be running. \
            Exit codes: 0 nothing wrong; 2 the file; 3 an app's settings; 4 a non-Apple root in a \
            Production app; 5 the database; 6 Apple refused the Server API key; 7 Apple's test \
            notification did not reach the server.
            """
    )

    @Option(help: "JSON configuration file (see docs/configuration.md).")
    var config: String

    @Option(help: "sqlite:PATH or postgres://… instead of the file's database.")
    var database: String?

    @Flag(help: "Also ask Apple (or the simulator the configuration points at) to send a test notification and wait for it.")
    var online = false

    @Option(help: "With --online, how long to wait for Apple's test notification, in seconds.")
    var timeout: Int = 60

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        var configuration: ServerConfiguration
        do {
            configuration = try ConfigurationLoader.load(file: URL(fileURLWithPath: config), environment: environment)
        } catch {
            Self.print(.error, "\(config): \(error.description)")
            throw ExitCode(ConfigurationCheck.Kind.configuration.rawValue)
        }
        if let database { configuration.databaseURL = database }
        let check = ConfigurationCheck(configuration: configuration, environment: environment)
        var findings = check.offline()
        findings.append(await Self.database(configuration.databaseURL))
        if online, !findings.contains(where: { $0.severity == .error }) {
            findings += await check.online(timeout: .seconds(timeout))
        }
        for finding in findings { Self.print(finding.severity, finding.message) }
        let errors = findings.filter { $0.severity == .error }
        let warnings = findings.filter { $0.severity == .warning }
        Swift.print("\(errors.count) error\(errors.count == 1 ? "" : "s"), \(warnings.count) warning\(warnings.count == 1 ? "" : "s")")
        if let first = errors.first { throw ExitCode(first.exitCode) }
    }

    /// Whether the database answers and its schema is one this binary knows; a SQLite file not
    /// made yet is made by the first `serve`.
    static func database(_ url: String) async -> ConfigurationCheck.Finding {
        do {
            let database = try DatabaseURL(url) as DatabaseURL
            if case .sqlite(let path) = database, !FileManager.default.fileExists(atPath: path) {
                return .warning("database \(path) does not exist yet: `perennial serve` (or `perennial migrate`) creates it")
            }
            let status = try await database.withStorage(createMissingFile: false) { storage in try await storage.schemaStatus() }
            if let newest = status.unknown.last {
                return .error(
                    .database,
                    "the database was migrated by a newer Perennial (\(newest)); this binary knows up to \(status.known.last ?? "none"): run the newer binary")
            }
            if !status.pending.isEmpty {
                return .warning("the database answers; \(status.pending.count) migration(s) pending, applied by `perennial migrate` or at `serve`")
            }
            return .ok("the database answers, its schema current (\(status.known.last ?? "none"))")
        } catch {
            return .error(.database, "the database cannot be used: \(error)")
        }
    }

    private static func print(_ severity: ConfigurationCheck.Finding.Severity, _ message: String) {
        let label = switch severity {
        case .ok: "ok     "
        case .warning: "warning"
        case .error: "ERROR  "
        }
        Swift.print("\(label) \(message)")
    }
}

import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import PerennialPostgres
import PerennialSQLite
import PerennialServer
import PerennialStorage
import PostgresNIO
import Prometheus
import ServiceLifecycle

/// `perennial serve [--config FILE] [--database URL] [--host H] [--port N]`: the server.
///
/// The command only picks and wires things: the storage back end from the database URL, the
/// process-wide logging and metrics backends (bootstrapped once, here), then runs the application
/// and the database pool in one service group that shuts down gracefully on SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Perennial server (client API, Apple notifications, admin, health, metrics).",
        discussion: """
            With no configuration file the server starts on the embedded SQLite database \
            (./perennial.sqlite) with no app configured, answering health and metrics. Environment \
            variables PERENNIAL_DATABASE_URL, PERENNIAL_HOST, PERENNIAL_PORT and PERENNIAL_ADMIN_KEY \
            override the file; flags override both. See docs/configuration.md.
            """
    )

    @Option(help: "JSON configuration file (see docs/configuration.md).")
    var config: String?

    @Option(help: "sqlite:PATH (default sqlite:./perennial.sqlite) or postgres://user:password@host:port/database.")
    var database: String?

    @Option(help: "Address to listen on (default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (default 8080).")
    var port: TCPPort?

    // `--simulator` (ServeCommand+Simulator.swift).
    @Flag(help: "Also run the App Store simulator and serve a demo app wired to it (app id demo, client key pk_demo).")
    var simulator = false

    @Option(name: .customLong("simulator-port"), help: "The simulator's port with --simulator.")
    var simulatorPort = TCPPort(8090)

    @Option(
        name: .customLong("simulator-pki"),
        help: "With --simulator, keep the simulator's signing chain in this directory (created on first use), so `perennial load --pki` can sign traffic the server trusts.")
    var simulatorPKI: String?

    @Option(
        name: .customLong("simulator-webhook"),
        help: "With --simulator, deliver the demo app's events to this URL, signed with the secret whsec_demo (`perennial load --webhook-port` listens for them).")
    var simulatorWebhook: String?

    @Flag(
        name: .customLong("simulator-seed"), inversion: .prefixedNo,
        help: "With --simulator, fill the demo app with a few hundred simulated subscribers over the past year (for the dashboard).")
    var simulatorSeed = true

    @Flag(
        inversion: .prefixedNo,
        help: "Apply pending migrations at start (the default). With --no-migrate the server does not start on a schema that is not current: apply it first with `perennial migrate`.")
    var migrate = true

    @OptionGroup var serverAPIKey: ServerAPIKeyOptions

    @Option(name: .customLong("log-format"), help: "text (one line for a person) or json (one JSON object a line, for a log shipper).")
    var logFormat: LogFormat = .text

    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func validate() throws {
        // The server is wired to the simulator's URL before it listens: a free port picked then would be unknown.
        guard simulatorPort.value != 0 else { throw ValidationError("--simulator-port must name a port; 0 would pick one the server cannot be told") }
        _ = try simulatorServerAPIKey()
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = try ConfigurationLoader.load(file: config.map { URL(fileURLWithPath: $0) }, environment: environment)
        if let database { configuration.databaseURL = database }
        if let host { configuration.host = host }
        if let port { configuration.port = port.value }
        // The loader refused any other spelling.
        let level = Logger.Level(rawValue: configuration.logLevel) ?? .info

        let format = logFormat
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                switch format {
                case .text: StreamLogHandler.standardError(label: label)
                case .json: JSONLogHandler(label: label)
                }
            handler.logLevel = level
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "perennial")
        if let raised = OpenFileLimit.raiseToHard(), raised.after > raised.before {
            logger.info("raised the open-file limit to its hard limit", metadata: ["from": "\(raised.before)", "to": "\(raised.after)"])
        }

        let storage: any SubscriberStorage
        var services: [any Service] = []
        switch try DatabaseURL(configuration.databaseURL) {
        case .sqlite(let path):
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw FileAccessError("create the SQLite database's directory", directory.path, error)
            }
            storage = try SQLiteStorage(path: path)
            logger.info("using SQLite", metadata: ["path": "\(path)"])
        case .postgres(let url):
            var postgresConfiguration = try PostgresStorage.configuration(url: url)
            try await PostgresStorage.checkConnection(url: url)
            // An idle connection starts an idle-timeout and a keep-alive timer (child tasks, a dispatch timer) that its next lease cancels, up to two per read under load: a fixed pool without keep-alive starts none (docs/load.md, "PostgreSQL reads").
            postgresConfiguration.options.minimumConnections = postgresConfiguration.options.maximumConnections
            postgresConfiguration.options.keepAliveBehavior = nil
            let postgres = PostgresStorage(configuration: postgresConfiguration, logger: Logger(label: "perennial.postgres"))
            services.append(postgres.client)
            storage = postgres
            logger.info("using PostgreSQL")
        }

        var afterMigration: [any Service] = []
        if simulator {
            let sandbox = try sandboxServices(configuration: &configuration, storage: storage, logger: logger)
            services += sandbox.services
            afterMigration += sandbox.afterMigration
        }

        let application = try buildApplication(
            configuration: configuration, storage: storage, environment: environment, metrics: ServerMetrics(registry: registry),
            logger: logger, services: services, servicesAfterMigration: afterMigration, webhookDelivery: configuration.webhookDelivery.options,
            massExtensions: configuration.massExtensions.options, imports: configuration.imports.options, migrate: migrate)
        logger.info("listening", metadata: ["host": "\(configuration.host)", "port": "\(configuration.port)"])
        do {
            try await application.runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            // NIO names neither the address nor the port ("bind(descriptor:ptr:bytes:): Address already in use").
            let ports = ["\(configuration.host):\(configuration.port)"] + (simulator ? ["the simulator's 127.0.0.1:\(simulatorPort.value)"] : [])
            throw AddressInUse(addresses: ports)
        }
    }
}

/// Another process listens where `serve` must.
struct AddressInUse: Error, CustomStringConvertible {
    let addresses: [String]
    var description: String {
        "cannot listen on \(addresses.joined(separator: " or ")): another process is using it (pick another with --port\(addresses.count > 1 ? " or --simulator-port" : ""))"
    }
}

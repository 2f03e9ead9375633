import ArgumentParser
import Foundation
import PerennialServer

/// `--config FILE --database URL`: the database a maintenance command works on, found as
/// `perennial serve` finds it (the flag, then PERENNIAL_DATABASE_URL, then the file, then
/// ./perennial.sqlite), so the command reaches the server's database with the server's settings.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "JSON configuration file (see docs/configuration.md).")
    var config: String?

    @Option(help: "sqlite:PATH (default sqlite:./perennial.sqlite) or postgres://user:password@host:port/database.")
    var database: String?

    /// The configuration file and environment, with `--database` applied.
    func configuration() throws -> ServerConfiguration {
        var configuration = try ConfigurationLoader.load(
            file: config.map { URL(fileURLWithPath: $0) }, environment: ProcessInfo.processInfo.environment)
        if let database { configuration.databaseURL = database }
        return configuration
    }

    /// The database URL alone, for the commands that need nothing else of the configuration.
    func databaseURL() throws -> DatabaseURL {
        try DatabaseURL(configuration().databaseURL)
    }
}

public import Foundation
import PerennialAppStore
import Logging

/// Reads the configuration file (if any) and applies the environment overrides.
///
/// Precedence, lowest first: built-in defaults, the file, `PERENNIAL_*` environment variables; the
/// command's flags are applied last by the command itself.
public enum ConfigurationLoader {
    /// The environment variables that override file values.
    public enum Variable {
        public static let databaseURL = "PERENNIAL_DATABASE_URL"
        public static let host = "PERENNIAL_HOST"
        public static let port = "PERENNIAL_PORT"
        public static let adminKey = "PERENNIAL_ADMIN_KEY"
    }

    /// The configuration from `file` (nil for none) with `environment`'s overrides; relative paths
    /// in the file are resolved against the file's directory.
    public static func load(file: URL?, environment: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        if let file {
            let data: Data
            do {
                data = try Data(contentsOf: file)
            } catch {
                throw .unreadableFile(path: file.path, reason: SystemErrorReason.of(error))
            }
            configuration = try decode(data)
            let directory = file.deletingLastPathComponent()
            if configuration.databaseURL.hasPrefix("sqlite:") {
                // The file's database is one of its paths (`--database` and the environment's stay
                // relative to the working directory).
                var path = String(configuration.databaseURL.dropFirst("sqlite:".count))
                if path.hasPrefix("//") { path.removeFirst(2) }
                if !path.isEmpty { configuration.databaseURL = "sqlite:" + ConfigurationPaths.absolute(path, relativeTo: directory) }
            }
            configuration.apps = configuration.apps.map { $0.resolvingPaths(relativeTo: directory) }
            configuration.adminKey = configuration.adminKey?.resolvingPath(relativeTo: directory)
            for index in configuration.adminKeys.indices {
                configuration.adminKeys[index].key = configuration.adminKeys[index].key.resolvingPath(relativeTo: directory)
            }
        }
        return try applyingOverrides(to: configuration, environment: environment)
    }

    /// Decodes the JSON file, naming the key path of the first problem.
    public static func decode(_ data: Data) throws(ConfigurationError) -> ServerConfiguration {
        do {
            return try JSONDecoder().decode(ServerConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw .malformed(path: "", reason: "\(error)")
        }
    }

    static func applyingOverrides(to base: ServerConfiguration, environment: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        var configuration = base
        if let url = environment[Variable.databaseURL], !url.isEmpty { configuration.databaseURL = url }
        if let host = environment[Variable.host], !host.isEmpty { configuration.host = host }
        if let text = environment[Variable.port], !text.isEmpty {
            guard let port = Int(text) else { throw .invalidValue(field: Variable.port, value: text, reason: "not a number") }
            configuration.port = port
        }
        if environment[Variable.adminKey]?.isEmpty == false { configuration.adminKey = SecretValue("env:" + Variable.adminKey) }
        guard (0...65_535).contains(configuration.port) else {
            throw .invalidValue(field: "port", value: "\(configuration.port)", reason: "not a TCP port")
        }
        guard Logger.Level(rawValue: configuration.logLevel) != nil else {
            throw .invalidValue(
                field: "logLevel", value: configuration.logLevel,
                reason: "not one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return configuration
    }

    private static func describe(_ error: DecodingError) -> ConfigurationError {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context): return .malformed(path: path(context.codingPath + [key]), reason: "required key is missing")
        case .typeMismatch(let type, let context): return .malformed(path: path(context.codingPath), reason: "expected \(type)")
        case .valueNotFound(let type, let context): return .malformed(path: path(context.codingPath), reason: "expected \(type), found null")
        case .dataCorrupted(let context): return .malformed(path: path(context.codingPath), reason: context.debugDescription)
        @unknown default: return .malformed(path: "", reason: "\(error)")
        }
    }
}

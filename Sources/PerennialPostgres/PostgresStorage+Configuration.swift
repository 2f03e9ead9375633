import Foundation
import NIOCore
public import PostgresNIO

extension PostgresStorage {
    /// Reads the usual `postgres://user:password@host:port/database?sslmode=…` URL so an operator
    /// configures the server with one environment variable, as with every other PostgreSQL client.
    ///
    /// `sslmode` may be `disable` (the default), `prefer` or `require`; TLS uses the system's trust roots.
    public static func configuration(url: String) throws(PostgresURLError) -> PostgresClient.Configuration {
        let parts = try URLParts(url)
        let tls: PostgresClient.Configuration.TLS =
            switch parts.sslMode {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        return PostgresClient.Configuration(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password, database: parts.database, tls: tls)
    }

    /// Opens one connection to `url` and closes it, within `timeout`: a server that is down or
    /// refuses the credentials is told at start with PostgreSQL's own reason ("password
    /// authentication failed for user …"). The pool instead retries for about a minute, logging
    /// the reason only at info level, and then fails with its circuit breaker's name.
    public static func checkConnection(url: String, timeout: Duration = .seconds(10)) async throws {
        let parts = try URLParts(url)
        let tls: PostgresConnection.Configuration.TLS =
            switch parts.sslMode {
            case .disable: .disable
            case .prefer: .prefer(try .init(configuration: .makeClientConfiguration()))
            case .require: .require(try .init(configuration: .makeClientConfiguration()))
            }
        var configuration = PostgresConnection.Configuration(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password, database: parts.database, tls: tls)
        configuration.options.connectTimeout = TimeAmount(timeout)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: Logger(label: "perennial.postgres"))
            try await connection.close()
        } catch {
            throw PostgresConnectionCheckError(host: parts.host, port: parts.port, reason: Self.reason(error))
        }
    }

    /// PostgreSQL's message for a refusal, the system's for a socket error.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return reason(underlying) }
            return "\(error.code)"
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first { return reason(first.error) }
        return "\(error)"
    }

    /// The parts of a `postgres://` URL both a pool and a single connection are configured from.
    private struct URLParts {
        enum SSLMode: String { case disable, prefer, require }

        let host: String
        let port: Int
        let user: String
        let password: String?
        let database: String?
        let sslMode: SSLMode

        init(_ url: String) throws(PostgresURLError) {
            guard let components = URLComponents(string: url) else { throw .malformed }
            guard let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else {
                throw .unsupportedScheme(components.scheme ?? "")
            }
            guard let host = components.host, !host.isEmpty else { throw .missingHost }
            guard let user = components.user, !user.isEmpty else { throw .missingUser }
            let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
            guard let sslMode = SSLMode(rawValue: mode) else { throw .unsupportedSSLMode(mode) }
            self.host = host
            port = components.port ?? 5432
            self.user = user
            password = components.password
            self.database = database.isEmpty ? nil : database
            self.sslMode = sslMode
        }
    }
}

/// PostgreSQL could not be reached or refused the connection at start.
public struct PostgresConnectionCheckError: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let reason: String

    public var description: String { "cannot connect to PostgreSQL at \(host):\(port): \(reason)" }
}

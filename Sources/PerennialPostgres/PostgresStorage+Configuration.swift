import Foundation
public import PostgresNIO

extension PostgresStorage {
    /// Reads the usual `postgres://user:password@host:port/database?sslmode=…` URL so an operator
    /// configures the server with one environment variable, as with every other PostgreSQL client.
    ///
    /// `sslmode` may be `disable` (the default), `prefer` or `require`; TLS uses the system's trust roots.
    public static func configuration(url: String) throws(PostgresURLError) -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url) else { throw .malformed }
        guard let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw .unsupportedScheme(components.scheme ?? "")
        }
        guard let host = components.host, !host.isEmpty else { throw .missingHost }
        guard let user = components.user, !user.isEmpty else { throw .missingUser }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresClient.Configuration.TLS
        switch mode {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        default: throw .unsupportedSSLMode(mode)
        }
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? nil : database, tls: tls)
    }
}

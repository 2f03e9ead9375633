/// Why a connection URL cannot configure ``PostgresStorage``.
///
/// The password never appears in a case or a description: URLs end up in logs.
public enum PostgresURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The string is not a URL at all.
    case malformed
    /// Only `postgres://` and `postgresql://` name a PostgreSQL server.
    case unsupportedScheme(String)
    /// A TCP URL needs a host to connect to.
    case missingHost
    /// A user is required: PostgreSQL has no anonymous login.
    case missingUser
    /// `sslmode` other than `disable`, `prefer` or `require` (certificate verification modes are not offered).
    case unsupportedSSLMode(String)

    public var description: String {
        switch self {
        case .malformed: "the PostgreSQL connection URL cannot be parsed"
        case .unsupportedScheme(let scheme): "the connection URL scheme '\(scheme)' is not postgres:// or postgresql://"
        case .missingHost: "the PostgreSQL connection URL names no host"
        case .missingUser: "the PostgreSQL connection URL names no user"
        case .unsupportedSSLMode(let mode): "sslmode '\(mode)' is not supported (use disable, prefer or require)"
        }
    }
}

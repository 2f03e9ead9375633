/// Why the server's configuration cannot be used; the server refuses to start rather than run with
/// an app it cannot verify evidence for.
public enum ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The configuration file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The file is not the documented JSON shape; `path` is the key path of the problem.
    case malformed(path: String, reason: String)
    /// A `"env:NAME"` value names an environment variable that is not set.
    case missingEnvironmentVariable(name: String, usedBy: String)
    /// A value is present but unusable (bad port, unknown environment, bad key…).
    case invalidValue(field: String, value: String, reason: String)
    /// Two apps share an id or a public key, which would make requests ambiguous.
    case duplicate(field: String, value: String)
    /// The app's catalog could not be loaded or does not declare the app's bundle id.
    case catalog(app: String, reason: String)
    /// A certificate (trusted root or receipt root) could not be loaded.
    case certificate(app: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read configuration file \(path): \(reason)"
        case .malformed(let path, let reason): "configuration \(path.isEmpty ? "file" : path) is malformed: \(reason)"
        case .missingEnvironmentVariable(let name, let usedBy): "environment variable \(name) (used by \(usedBy)) is not set"
        case .invalidValue(let field, let value, let reason): "configuration \(field) = \(value) is invalid: \(reason)"
        case .duplicate(let field, let value): "configuration \(field) \(value) appears more than once"
        case .catalog(let app, let reason): "catalog of app \(app): \(reason)"
        case .certificate(let app, let reason): "certificate of app \(app): \(reason)"
        }
    }
}

/// Why an App Store Connect key could not be loaded.
public enum AppStoreConnectKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not a PEM-encoded P-256 private key (wrong file, truncated paste, RSA key).
    case unreadablePEM(keyID: String, reason: String)

    /// A readable reason naming the key.
    public var description: String {
        switch self {
        case .unreadablePEM(let keyID, let reason): "key \(keyID) is not a P-256 private key in PEM form: \(reason)"
        }
    }
}

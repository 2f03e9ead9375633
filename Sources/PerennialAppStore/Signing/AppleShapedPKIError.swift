/// Why an Apple-shaped test PKI could not be generated, saved, loaded or used to sign.
public enum AppleShapedPKIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// swift-certificates refused to build or serialize a certificate.
    case certificate(role: String, reason: String)
    /// A file of a saved PKI could not be read or written.
    case io(path: String, reason: String)
    /// A file of a saved PKI does not hold what its name promises.
    case invalidFile(path: String, reason: String)
    /// A saved private key does not belong to the saved certificate of the same role.
    case keyMismatch(role: String)
    /// The payload could not be encoded or signed.
    case signing(String)

    /// The reason in words, for the simulator's log.
    public var description: String {
        switch self {
        case .certificate(let role, let reason): "cannot create the \(role) certificate: \(reason)"
        case .io(let path, let reason): "cannot access \(path): \(reason)"
        case .invalidFile(let path, let reason): "\(path) is invalid: \(reason)"
        case .keyMismatch(let role): "the saved \(role) private key does not match the \(role) certificate"
        case .signing(let reason): "cannot sign the payload: \(reason)"
        }
    }
}

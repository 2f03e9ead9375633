public import PerennialAppStore
public import PerennialStorage

/// Why evidence did not reach storage, or storage failed to take it. Whatever the case, nothing
/// was stored; ``HTTPErrors`` gives each reason its status, so the sender learns whether trying
/// again can help (4xx: no; 5xx: yes, Apple retries).
public enum IngestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The evidence was refused (``PerennialAppStore/AppEvidenceVerifier``'s decision).
    case refused(EvidenceError)
    /// The database failed; nothing was committed.
    case storage(StorageError)

    public var description: String {
        switch self {
        case .refused(let error): error.description
        case .storage(let error): "storage failed: \(error)"
        }
    }
}

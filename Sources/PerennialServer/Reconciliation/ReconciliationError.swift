/// Why a reconciliation check could not learn Apple's answer; the check is retried later.
public enum ReconciliationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The app has neither Server API keys nor verifyReceipt with a stored receipt.
    case noWayToAsk(app: String, originalTransactionID: String)
    /// The subscription's app is no longer configured.
    case unknownApp(bundleID: String)
    /// Apple (or the network) failed after the client's own retries.
    case apple(String)
    /// Apple answered something that does not verify or decode.
    case unreadableAnswer(String)

    public var description: String {
        switch self {
        case .noWayToAsk(let app, let id):
            "app \(app) has no Server API keys and no stored receipt for \(id) to send to verifyReceipt"
        case .unknownApp(let bundleID): "no configured app has bundle id \(bundleID)"
        case .apple(let reason): "Apple did not answer: \(reason)"
        case .unreadableAnswer(let reason): "Apple's answer cannot be used: \(reason)"
        }
    }
}

/// A verifyReceipt attempt that failed in a way a later attempt may not.
///
/// Kept as a value so the error reported after the last attempt says exactly what went wrong.
public enum VerifyReceiptTransientFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Apple answered with a retryable status (21002, 21005, 21009, or 21100–21199 flagged retryable).
    case status(Int)
    /// Apple answered with an HTTP status other than 200 (typically a 5xx HTML page).
    case httpStatus(Int, bodyExcerpt: String)
    /// Apple answered 200 with a body that is not a verifyReceipt JSON document.
    case unreadableBody(bodyExcerpt: String)
    /// The exchange did not complete (connection, TLS, timeout).
    case network(String)

    /// A readable reason with the offending value.
    public var description: String {
        switch self {
        case .status(let status): "retryable status \(status)"
        case .httpStatus(let status, let excerpt): "HTTP \(status): \(excerpt)"
        case .unreadableBody(let excerpt): "unreadable body: \(excerpt)"
        case .network(let reason): "network error: \(reason)"
        }
    }
}

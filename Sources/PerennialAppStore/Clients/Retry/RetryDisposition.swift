/// What a failed attempt says about trying again, as decided by the client that understands it.
///
/// Classification belongs to each protocol (a verifyReceipt 21005 and a Server API 4040002 mean
/// "try again" in different words); the ``RetryStateMachine`` only needs this verdict.
public enum RetryDisposition: Sendable, Equatable {
    /// Trying again cannot help (bad credentials, unknown transaction).
    case permanent
    /// Trying again may help after a backoff.
    case transient
    /// Trying again may help, but not before the server-given delay (HTTP `Retry-After`).
    case transientAfter(Duration)
}

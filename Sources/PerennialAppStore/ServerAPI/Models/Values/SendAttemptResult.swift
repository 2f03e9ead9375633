public import PerennialCore

/// The outcome of one attempt to deliver a notification (`sendAttemptResult`), kept open.
public struct SendAttemptResult: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Delivered.
    public static let success: Self = "SUCCESS"
    /// The server timed out.
    public static let timedOut: Self = "TIMED_OUT"
    /// A TLS problem.
    public static let tlsIssue: Self = "TLS_ISSUE"
    /// A redirect loop.
    public static let circularRedirect: Self = "CIRCULAR_REDIRECT"
    /// No response.
    public static let noResponse: Self = "NO_RESPONSE"
    /// A socket problem.
    public static let socketIssue: Self = "SOCKET_ISSUE"
    /// An unsupported charset.
    public static let unsupportedCharset: Self = "UNSUPPORTED_CHARSET"
    /// An invalid response.
    public static let invalidResponse: Self = "INVALID_RESPONSE"
    /// The connection closed early.
    public static let prematureClose: Self = "PREMATURE_CLOSE"
    /// A non-2xx HTTP status.
    public static let unsuccessfulHTTPResponseCode: Self = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    /// Any other failure.
    public static let other: Self = "OTHER"
}

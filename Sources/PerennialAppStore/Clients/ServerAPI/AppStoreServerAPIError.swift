/// Why an App Store Server API call produced no result.
public indirect enum AppStoreServerAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Apple answered with an error body.
    case api(status: Int, code: APIErrorCode, message: String)
    /// 401: the token was rejected (wrong key, key ID, issuer, bundle ID, or an expired token).
    case unauthorized
    /// 429: the hourly rate limit was hit; `retryAfter` is the server's requested wait, if given.
    case rateLimited(retryAfter: Duration?)
    /// A non-2xx answer without Apple's error body (a proxy's HTML page, an empty 404).
    case unexpectedResponse(status: Int, bodyExcerpt: String)
    /// The exchange did not complete (connection, TLS, timeout).
    case transport(String)
    /// A success body did not decode as the expected type, or pagination cursors were inconsistent.
    case decoding(String)
    /// A request body could not be encoded, or the endpoint does not form a valid URL.
    case invalidRequest(String)
    /// The authentication token could not be signed.
    case signing(String)
    /// Every attempt the retry policy allows failed transiently; `last` is the final failure.
    case retriesExhausted(last: AppStoreServerAPIError)

    /// A readable reason with the offending value.
    public var description: String {
        switch self {
        case .api(let status, let code, let message): "App Store Server API error \(code) (HTTP \(status)): \(message)"
        case .unauthorized: "App Store Server API rejected the token (HTTP 401)"
        case .rateLimited(let retryAfter): "App Store Server API rate limit exceeded" + (retryAfter.map { ", retry after \($0)" } ?? "")
        case .unexpectedResponse(let status, let excerpt): "App Store Server API answered HTTP \(status): \(excerpt)"
        case .transport(let reason): "App Store Server API unreachable: \(reason)"
        case .decoding(let reason): "App Store Server API answer could not be decoded: \(reason)"
        case .invalidRequest(let reason): "App Store Server API request is invalid: \(reason)"
        case .signing(let reason): "App Store Server API token could not be signed: \(reason)"
        case .retriesExhausted(let last): "App Store Server API retries exhausted; last failure: \(last)"
        }
    }
}

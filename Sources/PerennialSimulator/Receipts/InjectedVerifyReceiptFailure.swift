public import PerennialAppStore

/// A failure the simulated verifyReceipt endpoint answers with instead of verifying, so that a
/// server's retry and error paths can be exercised with the bodies Apple actually sends.
public enum InjectedVerifyReceiptFailure: Hashable, Sendable {
    /// `{"status": <code>, "environment": …}`, e.g. 21005 or 21009 (which carries Apple's
    /// `MZInAppCacheAccessException`, as observed).
    case status(VerifyReceiptStatus)
    /// An internal data access error in 21100–21199, with Apple's `is_retryable` flag and
    /// `exception` name.
    case internalError(VerifyReceiptStatus, retryable: Bool)
    /// HTTP 503 with an HTML page instead of JSON.
    case serviceUnavailableHTML

    /// The answer an endpoint playing `environment` gives.
    func reply(environment: AppleEnvironment) -> SimulatedVerifyReceiptReply {
        switch self {
        case .status(let status):
            .json(VerifyReceiptResponse(
                status: status, environment: environment,
                exception: status == .internalDataAccessError ? Self.cacheException : nil))
        case .internalError(let status, let retryable):
            .json(VerifyReceiptResponse(status: status, environment: environment, is_retryable: retryable, exception: Self.lockerException))
        case .serviceUnavailableHTML:
            .http(status: 503, body: Self.serviceUnavailablePage)
        }
    }

    /// The exception Apple names with status 21009.
    static let cacheException = "com.apple.jingle.commercelogic.inappcache.MZInAppCacheAccessException"
    /// The exception Apple names with statuses 21100–21199.
    static let lockerException = "com.apple.jingle.commercelogic.inapplocker.exception.MZInAppLockerAccessException"
    static let serviceUnavailablePage =
        "<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1>"
        + "<p>The server is temporarily unable to service your request. Please try again later.</p></body></html>"
}

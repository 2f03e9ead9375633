import Foundation
public import PerennialAppStore

/// A failure the simulated App Store Server API answers every request with until it is cleared, so
/// a server's retry, backoff and rate-limit paths meet the bodies Apple sends when it is down.
public struct InjectedServerAPIFailure: Hashable, Sendable {
    /// The HTTP status (500 for Apple's internal errors, 429 for its rate limit).
    public var status: Int
    /// Apple's `errorCode`.
    public var errorCode: APIErrorCode
    /// Apple's `errorMessage`.
    public var message: String

    public init(status: Int, errorCode: APIErrorCode, message: String) {
        self.status = status
        self.errorCode = errorCode
        self.message = message
    }

    /// 5000001, which Apple documents as worth retrying.
    public static let generalInternalRetryable = Self(
        status: 500, errorCode: .generalInternalRetryable, message: "An unknown error occurred. Please try again.")
    /// 4290000, Apple's rate limit.
    public static let rateLimitExceeded = Self(status: 429, errorCode: .rateLimitExceeded, message: "Rate limit exceeded.")

    /// The answer in Apple's error shape.
    var response: ServerAPIResponse {
        .json(APIErrorBody(errorCode: Int64(errorCode.rawValue), errorMessage: message), status: status)
    }
}

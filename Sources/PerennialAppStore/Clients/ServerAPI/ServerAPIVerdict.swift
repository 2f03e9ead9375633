import Foundation

/// What one App Store Server API HTTP answer means: a body to return, or a typed failure with the
/// retry disposition Apple's documentation implies. Pure, so every status path is testable alone.
enum ServerAPIVerdict: Sendable, Equatable {
    /// A 2xx answer's body.
    case success(Data)
    /// A failure and whether another attempt may help.
    case failure(AppStoreServerAPIError, RetryDisposition)

    /// Apple's error body.
    private struct ErrorBody: Decodable {
        let errorCode: Int
        let errorMessage: String?
    }

    /// Classifies `response`; `now` turns an HTTP-date `Retry-After` into a delay.
    init(response: AppStoreHTTPResponse, now: Date) {
        let retryAfter = response.header("Retry-After").flatMap { RetryAfter.delay(from: $0, now: now) }
        let transient: RetryDisposition = retryAfter.map { .transientAfter($0) } ?? .transient
        switch response.status {
        case 200..<300:
            self = .success(response.body)
        case 401:
            self = .failure(.unauthorized, .permanent)
        case 429:
            self = .failure(.rateLimited(retryAfter: retryAfter), transient)
        default:
            if let error = try? JSONDecoder().decode(ErrorBody.self, from: response.body) {
                let code = APIErrorCode(rawValue: error.errorCode)
                self = .failure(
                    .api(status: response.status, code: code, message: error.errorMessage ?? ""),
                    code.isRetryable ? transient : .permanent)
            } else {
                let excerpt = String(decoding: response.body.prefix(200), as: UTF8.self)
                self = .failure(
                    .unexpectedResponse(status: response.status, bodyExcerpt: excerpt),
                    response.status >= 500 ? transient : .permanent)
            }
        }
    }
}

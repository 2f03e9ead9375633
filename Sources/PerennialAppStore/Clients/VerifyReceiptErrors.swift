import Foundation
public import PerennialCore

/// Why ``VerifyReceiptClient/verify(receiptData:password:excludeOldTransactions:startingAt:)``
/// produced no answer.
public enum VerifyReceiptClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Apple answered with a permanent status from the given environment.
    case rejected(VerifyReceiptRejection, environment: AppStoreEnvironment)
    /// Both endpoints sent the request to the other one (21007 then 21008, or the reverse).
    case redirectLoop(status: Int)
    /// Every attempt allowed by the retry policy failed transiently; `attempts` counts all HTTP
    /// requests made, a redirect's included.
    case retriesExhausted(last: VerifyReceiptTransientFailure, attempts: Int)
    /// The task was cancelled while waiting to retry.
    case cancelled(last: VerifyReceiptTransientFailure)
    /// The request body could not be encoded.
    case requestEncoding(String)

    /// A readable reason with the offending value.
    public var description: String {
        switch self {
        case .rejected(let rejection, let environment): "verifyReceipt (\(environment)) rejected the receipt: \(rejection)"
        case .redirectLoop(let status): "verifyReceipt redirected back and forth between environments (status \(status))"
        case .retriesExhausted(let last, let attempts): "verifyReceipt failed after \(attempts) attempts: \(last)"
        case .cancelled(let last): "verifyReceipt cancelled while retrying after: \(last)"
        case .requestEncoding(let reason): "verifyReceipt request could not be encoded: \(reason)"
        }
    }
}

/// A verifyReceipt status that no retry can fix.
///
/// Each case names Apple's reason so callers can react precisely: a wrong shared secret is an
/// operator's configuration error, an unauthenticated receipt is bad evidence.
public enum VerifyReceiptRejection: Sendable, Equatable, CustomStringConvertible {
    /// 21000: the request was not a POST or Apple could not read the JSON (a bug on our side).
    case requestUnreadable
    /// 21003: the receipt could not be authenticated.
    case receiptNotAuthenticated
    /// 21004: the shared secret does not match the account's.
    case sharedSecretMismatch
    /// 21010: the user account cannot be found or was deleted.
    case accountNotFound
    /// 21100–21199 with `is_retryable` false: an internal data access error Apple says not to retry.
    case internalErrorNotRetryable(status: Int)
    /// Any other status Apple is not documented to send for this request (21001, a redirect to the
    /// endpoint that sent it, an unknown code).
    case unexpectedStatus(Int)

    /// The status code behind the rejection.
    public var status: Int {
        switch self {
        case .requestUnreadable: 21000
        case .receiptNotAuthenticated: 21003
        case .sharedSecretMismatch: 21004
        case .accountNotFound: 21010
        case .internalErrorNotRetryable(let status), .unexpectedStatus(let status): status
        }
    }

    /// A readable reason with the status code.
    public var description: String {
        switch self {
        case .requestUnreadable: "status 21000: Apple could not read the request"
        case .receiptNotAuthenticated: "status 21003: the receipt could not be authenticated"
        case .sharedSecretMismatch: "status 21004: the shared secret does not match"
        case .accountNotFound: "status 21010: the user account cannot be found"
        case .internalErrorNotRetryable(let status): "status \(status): internal data access error, not retryable"
        case .unexpectedStatus(let status): "unexpected status \(status)"
        }
    }
}

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

/// What one verifyReceipt HTTP answer means for the client: the pure half of
/// ``VerifyReceiptClient``'s algorithm, kept apart from the I/O so each status path is testable on
/// its own.
enum VerifyReceiptDecision: Sendable, Equatable {
    /// A success status; the body is the answer.
    case answered(status: Int)
    /// 21007/21008: send the identical request to the other endpoint.
    case redirect(to: VerifyReceiptEndpoint, status: Int)
    /// Worth another attempt at the same endpoint.
    case transient(VerifyReceiptTransientFailure)
    /// Final.
    case rejected(VerifyReceiptRejection)

    /// Classifies `response`, which came from `endpoint`.
    init(response: AppStoreHTTPResponse, from endpoint: VerifyReceiptEndpoint) {
        guard response.status == 200 else {
            self = .transient(.httpStatus(response.status, bodyExcerpt: Self.excerpt(of: response.body)))
            return
        }
        guard let head = try? JSONDecoder().decode(VerifyReceiptResponse.Head.self, from: response.body) else {
            self = .transient(.unreadableBody(bodyExcerpt: Self.excerpt(of: response.body)))
            return
        }
        self = Self.classify(head.status, isRetryable: head.isRetryable, from: endpoint)
    }

    /// Classifies a decoded status with the status type's own rules (what carries a receipt, where
    /// a redirect goes, what is worth retrying), adding only what the client does about the rest.
    static func classify(_ status: VerifyReceiptStatus, isRetryable: Bool, from endpoint: VerifyReceiptEndpoint) -> Self {
        if status.carriesReceipt { return .answered(status: status.rawValue) }
        if let target = status.redirectEnvironment {
            // 21007 from sandbox or 21008 from production points back at the endpoint that said it.
            let other: VerifyReceiptEndpoint = endpoint == .production ? .sandbox : .production
            return target == other.environment
                ? .redirect(to: other, status: status.rawValue)
                : .rejected(.unexpectedStatus(status.rawValue))
        }
        if status.isRetryable(retryableFlag: isRetryable) { return .transient(.status(status.rawValue)) }
        switch status {
        case .unreadableRequest: return .rejected(.requestUnreadable)
        case .notAuthenticated: return .rejected(.receiptNotAuthenticated)
        case .sharedSecretMismatch: return .rejected(.sharedSecretMismatch)
        case .accountNotFound: return .rejected(.accountNotFound)
        default:
            return status.isInternalDataAccessRange
                ? .rejected(.internalErrorNotRetryable(status: status.rawValue))
                : .rejected(.unexpectedStatus(status.rawValue))
        }
    }

    /// The start of a body as text, for error messages (HTML error pages can be long).
    private static func excerpt(of body: Data) -> String {
        String(decoding: body.prefix(200), as: UTF8.self)
    }
}

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

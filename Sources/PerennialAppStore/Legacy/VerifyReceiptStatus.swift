public import PerennialCore

/// verifyReceipt's `status`, kept open (a code Apple adds later still decodes), with what each
/// documented code means and whether asking again can help.
public struct VerifyReceiptStatus: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The receipt is valid (even if its subscriptions expired).
    public static let valid: Self = 0
    /// Not a POST, or the JSON could not be read.
    public static let unreadableRequest: Self = 21000
    /// No longer sent by the App Store.
    public static let retired21001: Self = 21001
    /// `receipt-data` malformed, or a temporary service issue.
    public static let malformedOrTemporaryIssue: Self = 21002
    /// The receipt could not be authenticated.
    public static let notAuthenticated: Self = 21003
    /// The shared secret does not match.
    public static let sharedSecretMismatch: Self = 21004
    /// The receipt server is temporarily unavailable.
    public static let serverUnavailable: Self = 21005
    /// Valid iOS 6-style receipt whose subscription expired; the receipt is still returned.
    public static let subscriptionExpired: Self = 21006
    /// A sandbox receipt sent to production.
    public static let sandboxReceiptOnProduction: Self = 21007
    /// A production receipt sent to the sandbox.
    public static let productionReceiptOnSandbox: Self = 21008
    /// Internal data access error.
    public static let internalDataAccessError: Self = 21009
    /// The user account cannot be found or was deleted.
    public static let accountNotFound: Self = 21010

    /// Whether the status is one of the internal data access errors 21100–21199, whose
    /// retryability Apple states in `is_retryable`.
    public var isInternalDataAccessRange: Bool { (21100...21199).contains(rawValue) }

    /// Whether the answer carries a decoded receipt to normalize (0, or 21006 for iOS 6 receipts).
    public var carriesReceipt: Bool { self == .valid || self == .subscriptionExpired }

    /// The environment to re-POST the identical request to (21007 → sandbox, 21008 → production).
    public var redirectEnvironment: AppStoreEnvironment? {
        switch self {
        case .sandboxReceiptOnProduction: .sandbox
        case .productionReceiptOnSandbox: .production
        default: nil
        }
    }

    /// Whether asking again later can succeed: 21002, 21005 and 21009 always, 21100–21199 only
    /// when Apple's `is_retryable` flag says so.
    public func isRetryable(retryableFlag: Bool) -> Bool {
        switch self {
        case .malformedOrTemporaryIssue, .serverUnavailable, .internalDataAccessError: true
        default: isInternalDataAccessRange && retryableFlag
        }
    }

    /// Apple's meaning of the status, for logs and error messages.
    public var meaning: String {
        switch self {
        case .valid: "the receipt is valid"
        case .unreadableRequest: "the request was not a POST or its JSON could not be read"
        case .retired21001: "status 21001 is no longer sent by the App Store"
        case .malformedOrTemporaryIssue: "receipt-data is malformed or the service had a temporary issue"
        case .notAuthenticated: "the receipt could not be authenticated"
        case .sharedSecretMismatch: "the shared secret does not match the account's"
        case .serverUnavailable: "the receipt server is temporarily unable to provide the receipt"
        case .subscriptionExpired: "the receipt is valid but the subscription has expired (iOS 6-style receipt)"
        case .sandboxReceiptOnProduction: "a sandbox receipt was sent to the production environment"
        case .productionReceiptOnSandbox: "a production receipt was sent to the sandbox environment"
        case .internalDataAccessError: "internal data access error"
        case .accountNotFound: "the user account cannot be found or has been deleted"
        default:
            isInternalDataAccessRange ? "internal data access error \(rawValue)" : "unknown status \(rawValue)"
        }
    }
}

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

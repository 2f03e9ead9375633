public import Foundation
public import PerennialCore

/// A verifyReceipt answer with a success status (0, or 21006 for iOS 6-style receipts).
///
/// The body is kept raw: decoding it into the legacy wire model is the caller's next step, and
/// storing the exact bytes keeps the evidence reproducible.
public struct VerifyReceiptAnswer: Sendable, Equatable {
    /// Apple's response body, untouched.
    public let body: Data
    /// The final status (0 or 21006).
    public let status: Int
    /// The environment of the endpoint that answered.
    public let environment: AppStoreEnvironment
    /// HTTP requests made, redirects and retries included.
    public let attempts: Int

    /// Creates an answer.
    public init(body: Data, status: Int, environment: AppStoreEnvironment, attempts: Int) {
        self.body = body
        self.status = status
        self.environment = environment
        self.attempts = attempts
    }
}

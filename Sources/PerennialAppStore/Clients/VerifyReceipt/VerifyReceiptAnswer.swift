public import Foundation
public import PerennialCore

/// A verifyReceipt answer with a success status (0, or 21006 for iOS 6-style receipts).
///
/// The body is kept raw: storing the exact bytes keeps the evidence reproducible, and
/// ``response()`` decodes it into the legacy wire model when the caller is ready to normalize.
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

    /// The body as the legacy wire model, so callers reach the receipt and renewal facts without
    /// choosing a decoder or the model's name themselves.
    ///
    /// - Throws: The `DecodingError` naming the key and value of the body that does not fit the
    ///   model (the client only checked the status and retry flag).
    public func response() throws(DecodingError) -> VerifyReceiptResponse {
        do {
            return try JSONDecoder().decode(VerifyReceiptResponse.self, from: body)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "verifyReceipt body could not be read: \(error)"))
        }
    }
}

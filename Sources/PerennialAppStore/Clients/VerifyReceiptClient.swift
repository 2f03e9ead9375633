public import Foundation
public import PerennialCore

/// Calls Apple's deprecated but still-served verifyReceipt endpoint the way Apple recommends.
///
/// Production first; on 21007 the identical body goes to sandbox (and on 21008 back to production);
/// transient failures — retryable statuses, non-200 answers such as HTML 503 pages, unreadable
/// bodies, network errors — are retried under the ``Retrier``'s bounded, jittered backoff; every
/// other status ends in a typed ``VerifyReceiptClientError``. The answer keeps the raw body so the
/// caller decodes and stores exactly what Apple sent.
public struct VerifyReceiptClient: Sendable {
    /// Apple's production endpoint.
    public static let defaultProductionURL = URL(string: "https://buy.itunes.apple.com/verifyReceipt")!
    /// Apple's sandbox endpoint.
    public static let defaultSandboxURL = URL(string: "https://sandbox.itunes.apple.com/verifyReceipt")!

    /// Where production requests go (a simulator's URL in tests and staging).
    public let productionURL: URL
    /// Where sandbox requests go.
    public let sandboxURL: URL
    private let transport: any AppStoreHTTPTransport
    private let retry: Retrier

    /// Creates a client; the URLs default to Apple's.
    public init(
        productionURL: URL = VerifyReceiptClient.defaultProductionURL,
        sandboxURL: URL = VerifyReceiptClient.defaultSandboxURL,
        transport: any AppStoreHTTPTransport,
        retry: Retrier = Retrier()
    ) {
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.transport = transport
        self.retry = retry
    }

    /// Verifies a base64 receipt and returns Apple's success answer.
    ///
    /// - Parameters:
    ///   - receiptData: The base64 (standard alphabet) app receipt or iOS 6 transaction receipt.
    ///   - password: The app-specific shared secret; required for auto-renewable subscriptions.
    ///   - excludeOldTransactions: Asks Apple for only the latest renewal of each subscription.
    ///   - startingAt: The endpoint asked first; production unless the receipt is known to be
    ///     sandbox, which saves a round trip.
    public func verify(
        receiptData: String,
        password: String?,
        excludeOldTransactions: Bool,
        startingAt start: VerifyReceiptEndpoint = .production
    ) async throws(VerifyReceiptClientError) -> VerifyReceiptAnswer {
        let body: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            body = try encoder.encode(
                VerifyReceiptRequest(receipt_data: receiptData, password: password, exclude_old_transactions: excludeOldTransactions))
        } catch {
            throw .requestEncoding(String(describing: error))
        }
        var endpoint = start
        var redirected = false
        var attempts = 0
        while true {
            let outcome = await retry.run { _ -> Retrier.Attempt<Settled, VerifyReceiptTransientFailure> in
                attempts += 1
                let response: AppStoreHTTPResponse
                do {
                    response = try await transport.send(request(to: endpoint, body: body))
                } catch {
                    return .failure(.network(String(describing: error)), .transient)
                }
                switch VerifyReceiptDecision(response: response, from: endpoint) {
                case .answered(let status): return .success(.answered(status: status, body: response.body))
                case .redirect(let target, let status): return .success(.redirect(to: target, status: status))
                case .rejected(let rejection): return .success(.rejected(rejection))
                case .transient(let failure): return .failure(failure, .transient)
                }
            }
            switch outcome {
            case .success(.answered(let status, let answer)):
                return VerifyReceiptAnswer(body: answer, status: status, environment: endpoint.environment, attempts: attempts)
            case .success(.redirect(let target, let status)):
                if redirected { throw .redirectLoop(status: status) }
                redirected = true
                endpoint = target
            case .success(.rejected(let rejection)):
                throw .rejected(rejection, environment: endpoint.environment)
            case .giveUp(let failure):
                throw .cancelled(last: failure)
            case .exhausted(let last, _):
                throw .retriesExhausted(last: last, attempts: attempts)
            }
        }
    }

    /// How a series of attempts at one endpoint ended, short of a transient failure.
    private enum Settled: Sendable {
        case answered(status: Int, body: Data)
        case redirect(to: VerifyReceiptEndpoint, status: Int)
        case rejected(VerifyReceiptRejection)
    }

    /// The POST for one attempt; the body is identical on every endpoint, as Apple requires.
    private func request(to endpoint: VerifyReceiptEndpoint, body: Data) -> AppStoreHTTPRequest {
        AppStoreHTTPRequest(
            method: .post,
            url: endpoint == .production ? productionURL : sandboxURL,
            headers: ["Content-Type": "application/json", "Accept": "application/json"],
            body: body
        )
    }
}

/// The two verifyReceipt services.
///
/// A receipt belongs to one of them, and Apple tells the caller through statuses 21007 and 21008
/// when it knocked at the wrong door.
public enum VerifyReceiptEndpoint: Sendable, Equatable {
    /// `buy.itunes.apple.com`.
    case production
    /// `sandbox.itunes.apple.com`.
    case sandbox

    /// The environment evidence from this endpoint belongs to.
    public var environment: AppStoreEnvironment {
        switch self {
        case .production: .production
        case .sandbox: .sandbox
        }
    }
}

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

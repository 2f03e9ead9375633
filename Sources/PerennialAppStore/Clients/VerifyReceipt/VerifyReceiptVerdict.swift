import Foundation

/// What one verifyReceipt HTTP answer means for the client: the pure half of the algorithm of
/// reference §2.12, kept apart from the I/O so each status path is testable on its own.
enum VerifyReceiptVerdict: Sendable, Equatable {
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

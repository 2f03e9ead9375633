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
        guard let probe = try? JSONDecoder().decode(VerifyReceiptStatusProbe.self, from: response.body) else {
            self = .transient(.unreadableBody(bodyExcerpt: Self.excerpt(of: response.body)))
            return
        }
        self = Self.classify(status: probe.status, isRetryable: probe.isRetryable, from: endpoint)
    }

    /// Classifies a decoded status.
    static func classify(status: Int, isRetryable: Bool, from endpoint: VerifyReceiptEndpoint) -> Self {
        switch status {
        case 0, 21006:
            return .answered(status: status)
        case 21007 where endpoint == .production:
            return .redirect(to: .sandbox, status: status)
        case 21008 where endpoint == .sandbox:
            return .redirect(to: .production, status: status)
        case 21002, 21005, 21009:
            return .transient(.status(status))
        case 21100...21199:
            return isRetryable ? .transient(.status(status)) : .rejected(.internalErrorNotRetryable(status: status))
        case 21000:
            return .rejected(.requestUnreadable)
        case 21003:
            return .rejected(.receiptNotAuthenticated)
        case 21004:
            return .rejected(.sharedSecretMismatch)
        case 21010:
            return .rejected(.accountNotFound)
        default:
            return .rejected(.unexpectedStatus(status))
        }
    }

    /// The start of a body as text, for error messages (HTML error pages can be long).
    private static func excerpt(of body: Data) -> String {
        String(decoding: body.prefix(200), as: UTF8.self)
    }
}

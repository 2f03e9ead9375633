import PerennialAppStore

/// An error answer of the simulated Server API: Apple's HTTP status, `errorCode` and message.
///
/// The codes are PerennialAppStore's ``APIErrorCode`` values, so the client and the simulator
/// cannot disagree on a number; the messages follow Apple's wording where Apple's samples show it.
struct ServerAPIFailure: Error, Equatable {
    let status: Int
    let code: APIErrorCode
    let message: String

    /// `{"errorCode": …, "errorMessage": "…"}` with the status.
    var response: ServerAPIResponse {
        .json(APIErrorBody(errorCode: Int64(code.rawValue), errorMessage: message), status: status)
    }

    static func badRequest(_ code: APIErrorCode, _ message: String) -> Self { Self(status: 400, code: code, message: message) }
    static func forbidden(_ code: APIErrorCode, _ message: String) -> Self { Self(status: 403, code: code, message: message) }
    static func notFound(_ code: APIErrorCode, _ message: String) -> Self { Self(status: 404, code: code, message: message) }

    static func general(_ reason: String) -> Self { .badRequest(.generalBadRequest, "Bad request. \(reason)") }
    static func internalError(_ reason: String) -> Self {
        Self(status: 500, code: .generalInternal, message: "An unknown error occurred. \(reason)")
    }

    static let invalidTransactionID = badRequest(.invalidTransactionId, "Invalid transaction id.")
    static let invalidOriginalTransactionID = badRequest(.invalidOriginalTransactionId, "Invalid original transaction id.")
    static let transactionIDNotFound = notFound(.transactionIdNotFound, "Transaction id not found.")
    static let originalTransactionIDNotFound = notFound(.originalTransactionIdNotFound, "Original transaction id not found.")
    /// A path that is no App Store Server API endpoint. Apple documents no code for it; the
    /// general bad-request code keeps the body in Apple's shape, with the 404 status.
    static let unknownPath = Self(status: 404, code: .generalBadRequest, message: "Invalid request. The requested resource was not found.")
    /// An endpoint's path with another method (the `Allow` header names the right one).
    static let methodNotAllowed = Self(status: 405, code: .generalBadRequest, message: "Invalid request. The method is not allowed for this resource.")
    static let invalidRevision = badRequest(.invalidRequestRevision, "Invalid request revision.")
}

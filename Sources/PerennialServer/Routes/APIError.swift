import Foundation
public import Hummingbird
import PerennialStorage

/// Every error answer of the server: an HTTP status and the `{"error", "message"}` body.
///
/// Typed errors of the layers below (``IngestError``, ``AuthError``) are converted here, in one
/// place, so a reason always gets the same status and code.
public struct APIError: HTTPResponseError, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let body: ErrorBody

    public init(status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.body = ErrorBody(error: code, message: message)
    }

    public var description: String { "\(status.code) \(body.error): \(body.message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(body, status: status)
    }

    static func notFound(_ message: String) -> APIError { APIError(status: .notFound, code: "notFound", message: message) }

    static func malformed(_ message: String) -> APIError { APIError(IngestError.malformedRequest(message)) }

    /// The status of an ingest failure: bad evidence is 4xx (sending it again cannot help), a
    /// failure on our side or Apple's is 5xx (try again; Apple does).
    init(_ error: IngestError) {
        let status: HTTPResponse.Status =
            switch error {
            case .malformedRequest, .malformedReceipt: .badRequest
            case .invalidSignature, .wrongBundleID, .wrongEnvironment, .wrongAppAppleID, .invalidEvidence, .receiptRejected: .unprocessableContent
            case .wrongSharedSecret: .unauthorized
            case .notConfigured: .notImplemented
            case .upstreamRejected: .badGateway
            case .appleUnavailable, .storage: .serviceUnavailable
            }
        self.init(status: status, code: error.code, message: error.description)
    }

    init(_ error: AuthError) {
        let status: HTTPResponse.Status =
            switch error {
            case .userMismatch: .forbidden
            default: .unauthorized
            }
        self.init(status: status, code: error.code, message: error.description)
    }

    init(_ error: StorageError) {
        self.init(IngestError.storage(error))
    }
}

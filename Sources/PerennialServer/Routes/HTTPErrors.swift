public import PerennialWire
import Foundation
public import Hummingbird
public import PerennialAppStore
public import PerennialStorage

/// Every error answer of the server, in one place: an HTTP status and the `{"error", "message"}`
/// body for each typed error of the layers below, so a reason always gets the same status and
/// code and a handler only throws.
///
/// ``APIError`` is for what only a route can say (no such app, a malformed query parameter); the
/// modules' own errors answer for themselves through the conformances below.
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

    static func malformed(_ message: String) -> APIError { APIError(EvidenceError.malformedRequest(message)) }

    /// Evidence's error as the answer it gets on any route.
    init(_ error: EvidenceError) {
        self.init(status: error.status, code: error.code, message: error.description)
    }
}

/// An error that names its reason with a machine-readable code, for the error body.
public protocol CodedError: Error, CustomStringConvertible {
    var code: String { get }
}

extension CodedError where Self: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(ErrorBody(error: code, message: description), status: status)
    }
}

/// Bad evidence is 4xx (sending it again cannot help); a failure on Apple's side is 5xx (try
/// again; Apple does).
extension EvidenceError: HTTPResponseError, CodedError {
    public var status: HTTPResponse.Status {
        switch self {
        case .malformedRequest, .malformedReceipt: .badRequest
        case .invalidSignature, .wrongBundleID, .wrongEnvironment, .wrongAppAppleID, .invalidEvidence, .mismatchedPurchase, .receiptRejected:
            .unprocessableContent
        case .wrongSharedSecret: .unauthorized
        case .notConfigured: .notImplemented
        case .upstreamRejected: .badGateway
        case .appleUnavailable: .serviceUnavailable
        }
    }
}

/// The database failing is 503: nothing was committed, trying again can help. Answered as the
/// ingest failure it is, whichever route met it.
extension StorageError: HTTPResponseError {
    public var status: HTTPResponse.Status { .serviceUnavailable }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try IngestError.storage(self).response(from: request, context: context)
    }
}

extension IngestError: HTTPResponseError, CodedError {
    public var status: HTTPResponse.Status {
        switch self {
        case .refused(let error): error.status
        case .storage(let error): error.status
        }
    }

    public var code: String {
        switch self {
        case .refused(let error): error.code
        case .storage: "storageUnavailable"
        }
    }
}

/// A call to the App Store Server API that failed: 503 when Apple could not be reached or kept
/// failing (try again), 404 when Apple knows nothing of what was asked about (the caller's id is
/// what is wrong), 502 when it refused.
extension AppStoreServerAPIError: HTTPResponseError, CodedError {
    public var status: HTTPResponse.Status {
        switch self {
        case .transport, .rateLimited, .retriesExhausted: .serviceUnavailable
        case .api(_, let code, _) where code.isNotFound: .notFound
        default: .badGateway
        }
    }

    public var code: String {
        switch self {
        case .transport, .rateLimited, .retriesExhausted: "appleUnavailable"
        case .api(_, let code, _) where code.isNotFound: "notFoundAtApple"
        default: "upstreamRejected"
        }
    }
}

/// An offer that cannot be signed as asked (an empty or invalid identifier) is 422.
extension OfferSignatureError: HTTPResponseError, CodedError {
    public var status: HTTPResponse.Status { .unprocessableContent }
    public var code: String { "invalidOffer" }
}

/// A request that may not act for the path's user, or an admin key whose scope is too narrow,
/// is 403; any other authentication failure 401.
extension AuthError: HTTPResponseError, CodedError {
    public var status: HTTPResponse.Status {
        switch self {
        case .userMismatch, .insufficientScope: .forbidden
        case .rateLimited, .tooManyFailures: .tooManyRequests
        default: .unauthorized
        }
    }

    /// The error body, with `Retry-After` on a 429.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.make(ErrorBody(error: code, message: description), status: status)
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}

/// The router's own answer to a path no route has, or a method its route does not take, as the
/// error body every other refusal has: it was an empty 404, which left a client calling a wrong
/// path or method nothing to read.
struct UnmatchedRouteMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            throw APIError.notFound("no route answers \(request.method.rawValue) \(request.uri.path); docs/openapi.yaml lists them")
        }
    }
}

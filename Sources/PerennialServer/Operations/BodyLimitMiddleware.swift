import Hummingbird

/// Holds every request to `limits.maxBodyBytes`: one that declares a larger `Content-Length` is
/// answered 413 before a byte of its body is read, and the routes read no more than that from one
/// that declares none (``JSONResponse/body(of:context:)``).
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = PerennialRequestContext

    let maxBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxBodyBytes {
            throw Self.tooLarge(maxBodyBytes)
        }
        var context = context
        context.maxUploadSize = maxBodyBytes
        return try await next(request, context)
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(status: .contentTooLarge, code: "bodyTooLarge", message: "the body exceeds \(limit) bytes (limits.maxBodyBytes)")
    }
}

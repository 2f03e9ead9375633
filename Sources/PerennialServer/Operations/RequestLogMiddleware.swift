import Hummingbird
import Logging

/// One structured log line per request (route, status, latency; the request id comes with the
/// context's logger), and the reason of every error answer, so an operator sees why a request
/// was refused without turning on debug logs.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: response.status.code, elapsed: clock.now - start, reason: nil)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, context, status: status, elapsed: clock.now - start, reason: "\(error)")
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, elapsed: Duration, reason: String?) {
        var metadata: Logger.Metadata = [
            "http.method": "\(request.method.rawValue)",
            "http.route": "\(context.endpointPath ?? "unmatched")",
            "http.status": "\(status)",
            "duration_ms": "\(elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
        ]
        if let reason { metadata["error"] = "\(reason)" }
        let level: Logger.Level = status >= 500 ? .error : status >= 400 ? .notice : .info
        context.logger.log(level: level, "request", metadata: metadata)
    }
}

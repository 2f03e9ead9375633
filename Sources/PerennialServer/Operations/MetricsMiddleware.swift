import Hummingbird

/// Records every request's route, method, status and latency in ``ServerMetrics``, including
/// requests that end in an error.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        let method = request.method.rawValue
        do {
            let response = try await next(request, context)
            metrics.recordRequest(
                route: context.endpointPath ?? "unmatched", method: method, status: response.status.code, duration: clock.now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(route: context.endpointPath ?? "unmatched", method: method, status: status, duration: clock.now - start)
            throw error
        }
    }
}

import Hummingbird
import PerennialSimulator

/// The simulator's HTTP API, bringing the server's clock along after every request, so a test that
/// moves time through `/simulator/v1/clock/advance` or an `advance` action sees the server agree.
struct ClockSyncingResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let base: RouterResponder<BasicRequestContext>
    let clock: LiveClock

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let response = try await base.respond(to: request, context: context)
        await clock.synchronize()
        return response
    }
}

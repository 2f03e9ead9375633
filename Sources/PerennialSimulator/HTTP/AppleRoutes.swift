import Foundation
import Hummingbird
import PerennialAppStore
import PerennialCore

/// Apple's own paths: verifyReceipt (the simulator's environment at `/verifyReceipt`, both
/// environments under their prefixes) and the App Store Server API under `/inApps`.
struct AppleRoutes {
    let simulator: AppStoreSimulator

    func add(to router: Router<BasicRequestContext>) {
        let own = simulator.setup.environment
        router.post("verifyReceipt") { request, _ in await verifyReceipt(request, endpoint: own) }
        router.post("sandbox/verifyReceipt") { request, _ in await verifyReceipt(request, endpoint: .sandbox) }
        router.post("production/verifyReceipt") { request, _ in await verifyReceipt(request, endpoint: .production) }
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("inApps/**", method: method) { request, context in
                await ServerAPIRouting.respond(to: request, simulator: simulator, logger: context.logger)
            }
        }
    }

    /// Apple answers HTTP 200 with a status code for everything it can read, 21000 for a body it
    /// cannot, and an HTML page for a simulated outage.
    private func verifyReceipt(_ request: Request, endpoint: AppStoreEnvironment) async -> Response {
        await RouteHandling.run {
            let environment = AppleEnvironment(rawValue: endpoint.rawValue)
            let body = try await SimulatorJSON.body(of: request)
            guard let posted = try? JSONDecoder().decode(VerifyReceiptRequest.self, from: body) else {
                return try SimulatorJSON.raw(
                    JSONEncoder().encode(VerifyReceiptResponse(status: .unreadableRequest, environment: environment)))
            }
            switch try await simulator.verifyReceipt(posted, endpoint: endpoint) {
            case .json(let response):
                return try SimulatorJSON.raw(JSONEncoder().encode(response))
            case .http(let status, let page):
                return SimulatorJSON.raw(
                    Data(page.utf8), status: HTTPResponse.Status(code: status), contentType: "text/html; charset=utf-8")
            }
        }
    }
}

import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// verifyReceipt played in-process by the simulator's responder, so the server's
/// `VerifyReceiptClient` talks Apple's wire format (including the 21007 redirect) without a network.
final class SimulatedVerifyReceipt: AppStoreHTTPTransport, @unchecked Sendable {
    static let productionURL = URL(string: "https://verify.simulator.test/production/verifyReceipt")!
    static let sandboxURL = URL(string: "https://verify.simulator.test/sandbox/verifyReceipt")!

    private let lock = NSLock()
    private var world: StoreWorld
    private(set) var requests = 0

    init(world: StoreWorld) { self.world = world }

    /// The store the next answers describe.
    func update(_ world: StoreWorld) { lock.withLock { self.world = world } }

    struct UnknownURL: Error { let url: URL }

    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        let environment: AppStoreEnvironment
        switch request.url {
        case Self.productionURL: environment = .production
        case Self.sandboxURL: environment = .sandbox
        default: throw UnknownURL(url: request.url)
        }
        let world = lock.withLock {
            requests += 1
            return self.world
        }
        let body = try JSONDecoder().decode(VerifyReceiptRequest.self, from: request.body ?? Data())
        let responder = VerifyReceiptResponder(configuration: VerifyReceiptResponder.Configuration(environment: environment, app: StoreWorld.wire))
        switch try await responder.respond(to: body, state: world.state, pki: world.pki) {
        case .json(let response): return AppStoreHTTPResponse(status: 200, body: try JSONEncoder().encode(response))
        case .http(let status, let text): return AppStoreHTTPResponse(status: status, body: Data(text.utf8))
        }
    }
}

import Crypto
import Foundation
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator

/// Apple's verifyReceipt and App Store Server API over one ``SimulatedStore``, reached through the
/// server's HTTP transport, with outages on demand: the next requests can be answered with any
/// failure (a 5000001, a 429, a 21005) before the store answers again.
final class SimulatedApple: AppStoreHTTPTransport, @unchecked Sendable {
    static let serverAPIBaseURL = URL(string: "https://api.simulator.test")!
    static let keyID = "SIMKEY0001"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"

    let store: SimulatedStore
    let key = P256.Signing.PrivateKey()
    private let clock: TestClock
    private let responder: ServerAPIResponder
    private let lock = NSLock()
    private var failures: [(response: AppStoreHTTPResponse, method: AppStoreHTTPRequest.Method?)] = []
    private var answered = 0

    init(store: SimulatedStore, clock: TestClock) throws {
        self.store = store
        self.clock = clock
        responder = ServerAPIResponder(
            credentials: ServerAPICredentials(issuerID: Self.issuerID, bundleID: StoreWorld.bundleID, keyID: Self.keyID, publicKey: key.publicKey),
            pki: try StoreWorld.sharedPKI.get(), environment: .production, appAppleID: 1_234_567_890)
    }

    /// The harness's production app, asking this simulated Apple through its Server API key.
    func productionApp() throws -> AppConfiguration {
        AppConfiguration(
            id: ServerHarness.appID, bundleID: StoreWorld.bundleID, appAppleID: 1_234_567_890, catalog: .catalog(StoreWorld.catalog),
            environments: [.production], publicKeys: [SecretValue(ServerHarness.publicKey)],
            trustedRoots: [.certificates([try StoreWorld.sharedPKI.get().jws.root])],
            serverAPI: SigningKeyConfiguration(
                keyID: Self.keyID, privateKey: SecretValue(key.pemRepresentation), issuerID: Self.issuerID, baseURL: Self.serverAPIBaseURL))
    }

    /// The next `count` requests (of `method`, when given) get `response` instead of an answer.
    func fail(next count: Int, with response: AppStoreHTTPResponse, method: AppStoreHTTPRequest.Method? = nil) {
        lock.withLock { failures += Array(repeating: (response, method), count: count) }
    }

    /// Ends the failures still waiting: the store answers the next request.
    func clearFailures() {
        lock.withLock { failures.removeAll() }
    }

    /// Requests the store itself answered (failures excluded).
    var answeredRequests: Int { lock.withLock { answered } }

    struct UnknownURL: Error { let url: URL }

    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        let failure: AppStoreHTTPResponse? = lock.withLock {
            guard let index = failures.firstIndex(where: { $0.method == nil || $0.method == request.method }) else {
                answered += 1
                return nil
            }
            return failures.remove(at: index).response
        }
        if let failure { return failure }
        switch request.url {
        case SimulatedVerifyReceipt.productionURL: return try await verifyReceipt(request, environment: .production)
        case SimulatedVerifyReceipt.sandboxURL: return try await verifyReceipt(request, environment: .sandbox)
        default:
            guard request.url.host == Self.serverAPIBaseURL.host else { throw UnknownURL(url: request.url) }
            let answer = await responder.respond(
                to: ServerAPIRequest(method: request.method.rawValue, url: request.url, headers: request.headers, body: request.body ?? Data()),
                backend: store, now: clock.now, tokenTime: Date())
            return AppStoreHTTPResponse(status: answer.status, headers: answer.headers.map { ($0.key, $0.value) }, body: answer.body)
        }
    }

    private func verifyReceipt(_ request: AppStoreHTTPRequest, environment: AppStoreEnvironment) async throws -> AppStoreHTTPResponse {
        let body = try JSONDecoder().decode(VerifyReceiptRequest.self, from: request.body ?? Data())
        let responder = VerifyReceiptResponder(configuration: VerifyReceiptResponder.Configuration(environment: environment, app: StoreWorld.wire))
        let world = await store.world
        switch try await responder.respond(to: body, state: world.state, pki: world.pki) {
        case .json(let response): return AppStoreHTTPResponse(status: 200, body: try JSONEncoder().encode(response))
        case .http(let status, let text): return AppStoreHTTPResponse(status: status, body: Data(text.utf8))
        }
    }
}

import Crypto
import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import PerennialTestSupport

/// A store with a few subscriptions behind a `ServerAPIResponder`, and helpers to call it with
/// tokens minted the way PerennialAppStore mints them.
struct ServerAPIHarness {
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyID = "SIMKEY1234"
    static let bundleID = "com.example.app"
    static let key = P256.Signing.PrivateKey()
    static let alice = SimulatorFixture.tester
    static let bob = SandboxAccount(id: "bob@example.com", storefront: "USA")

    let backend: InMemorySimulatorBackend
    let responder: ServerAPIResponder

    static var credentials: ServerAPICredentials {
        ServerAPICredentials(issuerID: issuerID, bundleID: bundleID, keyID: keyID, publicKey: key.publicKey)
    }

    init(renewalLimit: Int = 12, gracePeriodDays: Int? = nil, environment: AppStoreEnvironment = .sandbox) throws {
        let pki = try WirePKI.get()
        backend = InMemorySimulatorBackend(
            state: SimulatorFixture.state(renewalLimit: renewalLimit, gracePeriodDays: gracePeriodDays), pki: pki)
        responder = ServerAPIResponder(credentials: Self.credentials, pki: pki, environment: environment)
    }

    /// The store's instant, which stamps signed dates and judges tokens.
    func now() async -> Date { await backend.currentState().now }

    /// Performs an action and returns the original transaction id of the first transaction it touched.
    @discardableResult
    func perform(_ action: LifecycleAction) async throws -> String {
        try await backend.perform(action).output.transactions.first?.originalTransactionID ?? ""
    }

    func buy(_ productID: String, account: SandboxAccount = alice, offer: Offer? = nil) async throws -> String {
        try await perform(.purchase(PurchaseRequest(productID: productID, account: account, offer: offer)))
    }

    func advance(toSecond seconds: TimeInterval) async throws {
        _ = try await backend.advance(to: SimulatorFixture.at(seconds))
    }

    /// A valid token issued at `now`, as `AppStoreServerAPIToken` mints it.
    static func token(
        now: Date, issuer: String = issuerID, keyID: String = keyID, bundleID: String = bundleID, audience: String = "appstoreconnect-v1",
        lifetime: TimeInterval = 300, key: P256.Signing.PrivateKey = key, alg: String = "ES256", typ: String = "JWT"
    ) throws -> String {
        struct Header: Encodable { let alg: String; let kid: String; let typ: String }
        struct Claims: Encodable { let iss: String; let iat: Int64; let exp: Int64; let aud: String; let bid: String }
        let iat = Int64(now.timeIntervalSince1970)
        return try JWSSigning.sign(
            header: Header(alg: alg, kid: keyID, typ: typ),
            payload: Claims(iss: issuer, iat: iat, exp: iat + Int64(lifetime), aud: audience, bid: bundleID), key: key)
    }

    /// Calls the responder with a valid token.
    func call(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data = Data()) async throws -> ServerAPIResponse {
        let now = await now()
        let request = ServerAPIRequest(
            method: method, path: path, queryItems: query, headers: ["Authorization": "Bearer " + (try Self.token(now: now))], body: body)
        return await responder.respond(to: request, backend: backend, now: now)
    }

    func call(_ method: String, _ path: String, query: [URLQueryItem] = [], json: String) async throws -> ServerAPIResponse {
        try await call(method, path, query: query, body: Data(json.utf8))
    }

    /// The real App Store Server API client of PerennialAppStore, talking to the responder.
    func client() async -> AppStoreServerAPIClient {
        let now = await now()
        let configuration = AppStoreServerAPIConfiguration(
            key: AppStoreConnectKey(privateKey: Self.key, keyID: Self.keyID), issuerID: Self.issuerID, bundleID: Self.bundleID,
            environment: .sandbox, baseURL: URL(string: "http://simulator.test"))
        return AppStoreServerAPIClient(
            configuration: configuration, transport: ResponderTransport(responder: responder, backend: backend, now: now), now: { now })
    }

    /// A verifier trusting the simulator's root, as a server under test configures it.
    static func verifier() throws -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: [WirePKI.get().jws.root], bundleID: bundleID, environment: .sandbox)
    }
}

/// Carries the client's requests to the responder in memory.
struct ResponderTransport: AppStoreHTTPTransport {
    let responder: ServerAPIResponder
    let backend: InMemorySimulatorBackend
    let now: Date

    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        let response = await responder.respond(
            to: ServerAPIRequest(method: request.method.rawValue, url: request.url, headers: request.headers, body: request.body ?? Data()),
            backend: backend, now: now)
        return AppStoreHTTPResponse(status: response.status, headers: response.headers.map { ($0.key, $0.value) }, body: response.body)
    }
}

extension ServerAPIResponse {
    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else { throw WirePKI.MalformedJWS(jws: "") }
        return object
    }

    /// Apple's `errorCode`, nil for a success body.
    func errorCode() throws -> Int? { try object()["errorCode"] as? Int }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(T.self, from: body) }
}

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PerennialLiveHarness

/// JSON over real HTTP to a ``LiveSystem``: the device side (the simulator) and the app's side
/// (the server's `/v1`, as the SDK calls it).
struct LiveHTTP {
    struct Response {
        var status: Int
        var json: [String: Any]
        var text: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let system: LiveSystem

    static func call(_ method: HTTPMethod, _ url: URL, bearer: String? = nil, body: String? = nil) async throws -> Response {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 4 << 20)
        let data = Data(String(buffer: bytes).utf8)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Response(status: Int(response.status.code), json: json, text: String(decoding: data, as: UTF8.self))
    }

    static func encode(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    // MARK: simulator (device)

    func simulator(_ method: HTTPMethod, _ path: String, _ body: [String: Any]? = nil) async throws -> Response {
        try await Self.call(method, system.simulatorURL.appendingPathComponent(path), body: try body.map(Self.encode))
    }

    /// Creates the sandbox account `id` (renewal behaviour `renewal`).
    func account(_ id: String, renewal: String = "renew") async throws {
        let response = try await simulator(.POST, "simulator/v1/accounts", ["id": id, "storefront": "USA", "renewal": renewal])
        guard response.status == 201 || response.status == 200 else { throw Failure(description: "account: \(response.text)") }
    }

    /// Buys `productID` on the device as `account`; returns the purchase response.
    func buy(_ productID: String, account: String, offer: [String: Any]? = nil, billingPlan: String? = nil) async throws -> Response {
        var body: [String: Any] = ["account": account, "productId": productID]
        if let offer { body["offer"] = offer }
        if let billingPlan { body["billingPlan"] = billingPlan }
        let response = try await simulator(.POST, "simulator/v1/purchases", body)
        guard response.status == 200 || response.status == 201, response.json["signedTransaction"] is String else {
            throw Failure(description: "purchase: \(response.status) \(response.text)")
        }
        return response
    }

    /// Performs one scenario step (docs/scenarios.md) on the simulator.
    func action(_ step: [String: Any]) async throws -> Response {
        let response = try await simulator(.POST, "simulator/v1/actions", step)
        guard response.status == 200 else { throw Failure(description: "action \(step): \(response.status) \(response.text)") }
        return response
    }

    // MARK: server (app)

    func server(_ method: HTTPMethod, _ path: String, body: String? = nil, bearer: String? = nil) async throws -> Response {
        try await Self.call(method, system.serverURL.appendingPathComponent(path), bearer: bearer ?? system.publicKey, body: body)
    }

    func postTransaction(_ jws: String, user: String) async throws -> Response {
        try await server(.POST, "v1/subscribers/\(user)/transactions", body: try Self.encode(["signedTransaction": jws]))
    }

    func postReceipt(_ receipt: String, user: String) async throws -> Response {
        try await server(.POST, "v1/subscribers/\(user)/receipts", body: try Self.encode(["receipt": receipt]))
    }

    func subscriber(_ user: String) async throws -> Response {
        try await server(.GET, "v1/subscribers/\(user)")
    }
}

extension LiveHTTP.Response {
    var subscriber: [String: Any] { json["subscriber"] as? [String: Any] ?? [:] }

    /// `subscriber.entitlements[id].isActive`.
    func isActive(_ entitlement: String) -> Bool {
        ((subscriber["entitlements"] as? [String: Any])?[entitlement] as? [String: Any])?["isActive"] as? Bool ?? false
    }

    /// `subscriber.entitlements[id].productId`.
    func productID(of entitlement: String) -> String? {
        ((subscriber["entitlements"] as? [String: Any])?[entitlement] as? [String: Any])?["productId"] as? String
    }

    /// The subscriptions, by `originalTransactionId`.
    var subscriptions: [[String: Any]] { subscriber["subscriptions"] as? [[String: Any]] ?? [] }

    /// `status` of the only subscription.
    var subscriptionStatus: String? { subscriptions.first?["status"] as? String }
}

import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PerennialServer
import Testing
import PerennialSimulator

/// Requests as an app, Apple or an operator sends them, and their answers decoded.
extension TestClientProtocol {
    func send(
        _ method: HTTPRequest.Method, _ uri: String, key: String? = ServerHarness.publicKey, userToken: String? = nil, body: Data? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        if let key { headers[.authorization] = "Bearer \(key)" }
        if let userToken { headers[try #require(HTTPFields.Element.Name("X-Perennial-User-Token"))] = userToken }
        if body != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
    }

    func postTransaction(_ signed: String, user: String, userToken: String? = nil) async throws -> TestResponse {
        try await send(.post, "/v1/subscribers/\(user)/transactions", userToken: userToken, body: try JSONEncoder().encode(SignedTransactionRequest(signedTransaction: signed)))
    }

    func postReceipt(_ receipt: String, user: String) async throws -> TestResponse {
        try await send(.post, "/v1/subscribers/\(user)/receipts", body: try JSONEncoder().encode(ReceiptRequest(receipt: receipt)))
    }

    func notifyV2(_ body: Data, app: String = ServerHarness.appID) async throws -> TestResponse {
        try await send(.post, "/apple/notifications/v2/\(app)", key: nil, body: body)
    }

    func notifyV1(_ body: Data, app: String = ServerHarness.appID) async throws -> TestResponse {
        try await send(.post, "/apple/notifications/v1/\(app)", key: nil, body: body)
    }

    func subscriber(_ user: String, userToken: String? = nil) async throws -> TestResponse {
        try await send(.get, "/v1/subscribers/\(user)", userToken: userToken)
    }
}

extension TestResponse {
    var data: Data { Data(body.readableBytesView) }

    var text: String { String(decoding: data, as: UTF8.self) }

    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try WireJSON.decoder().decode(type, from: data)
    }

    /// The `error` code of an error body.
    var errorCode: String? { (try? decode(ErrorBody.self))?.error }
}

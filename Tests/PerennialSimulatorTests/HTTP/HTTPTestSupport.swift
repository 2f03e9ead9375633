import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

/// JSON in and out of the simulator's HTTP API in tests.
enum HTTPTest {
    struct NotAnObject: Error { let text: String }

    static func body(_ json: String) -> ByteBuffer { ByteBuffer(string: json) }

    static func object(_ response: TestResponse) throws -> [String: Any] {
        let data = Data(response.body.readableBytesView)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NotAnObject(text: String(decoding: data, as: UTF8.self))
        }
        return object
    }

    /// Sends a request and returns the status and the JSON object of the answer (empty without a body).
    static func call(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, json: String? = nil
    ) async throws -> (status: Int, json: [String: Any]) {
        try await client.execute(uri: uri, method: method, headers: [:], body: json.map(body)) { response in
            (Int(response.status.code), response.body.readableBytes == 0 ? [:] : try object(response))
        }
    }
}

/// A stand-in for a server's notification endpoints: records every body and answers 500 to the
/// first `failures` requests of each format.
actor NotificationReceiver {
    private(set) var v2: [Data] = []
    private(set) var v1: [Data] = []
    private var failuresLeft: [String: Int]

    init(failures: Int = 0) {
        failuresLeft = ["v2": failures, "v1": failures]
    }

    func receive(_ format: String, body: Data) -> Int {
        if format == "v2" { v2.append(body) } else { v1.append(body) }
        let left = failuresLeft[format, default: 0]
        guard left > 0 else { return 200 }
        failuresLeft[format] = left - 1
        return 500
    }

    /// The receiver as a Hummingbird application with `POST /v2` and `POST /v1`.
    nonisolated func application() -> some ApplicationProtocol {
        let router = Router()
        for format in ["v2", "v1"] {
            router.post(RouterPath(format)) { request, _ -> Response in
                var request = request
                let buffer = try await request.collectBody(upTo: 1 << 20)
                let status = await self.receive(format, body: Data(buffer.readableBytesView))
                return Response(status: HTTPResponse.Status(code: status))
            }
        }
        return Application(router: router)
    }
}

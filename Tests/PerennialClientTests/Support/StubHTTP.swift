import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A tiny HTTP peer inside URLSession's loading system: each test registers a handler under its own
/// host, and the real `URLSession` code path (request building, status handling, body decoding)
/// runs unchanged against it.
final class StubHTTP: @unchecked Sendable {
    struct Request: Sendable {
        let method: String
        let path: String
        /// Percent-encoded, without the `?`; nil when the URL has none.
        let query: String?
        let headers: [String: String]
        let body: Data

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }
    }

    struct Response: Sendable {
        let status: Int
        let body: String
        var headers: [String: String] = [:]
    }

    // Invariant making `@unchecked Sendable` sound: the vars are only touched under `lock`.
    private static let lock = NSLock()
    private nonisolated(unsafe) static var peers: [String: StubHTTP] = [:]

    private let lock = NSLock()
    private let handler: @Sendable (Request) -> Response
    private var recorded: [Request] = []
    let baseURL: URL
    let session: URLSession

    /// A peer at a fresh host answering with `handler`.
    init(handler: @escaping @Sendable (Request) -> Response) {
        let host = "stub-\(UUID().uuidString.lowercased()).invalid"
        self.handler = handler
        self.baseURL = URL(string: "http://\(host)")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        self.session = URLSession(configuration: configuration)
        Self.lock.withLock { Self.peers[host] = self }
    }

    var requests: [Request] { lock.withLock { recorded } }

    static func answer(_ urlRequest: URLRequest) -> Response {
        guard let url = urlRequest.url, let host = url.host, let peer = lock.withLock({ peers[host] }) else {
            return Response(status: 599, body: "")
        }
        var body = urlRequest.httpBody ?? Data()
        if body.isEmpty, let stream = urlRequest.httpBodyStream {
            stream.open()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while stream.hasBytesAvailable {
                let count = stream.read(&buffer, maxLength: buffer.count)
                if count <= 0 { break }
                body.append(buffer, count: count)
            }
            stream.close()
        }
        let request = Request(
            method: urlRequest.httpMethod ?? "GET", path: url.path(percentEncoded: true), query: url.query(percentEncoded: true),
            headers: urlRequest.allHTTPHeaderFields ?? [:], body: body)
        peer.lock.withLock { peer.recorded.append(request) }
        return peer.handler(request)
    }
}

/// Routes every request of a stub session to its ``StubHTTP`` peer.
final class StubURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let answer = StubHTTP.answer(request)
        let response = HTTPURLResponse(
            url: request.url!, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers.merging(["Content-Type": "application/json"]) { own, _ in own })!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(answer.body.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

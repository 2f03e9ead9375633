public import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The production ``AppStoreHTTPTransport``: AsyncHTTPClient with a per-request deadline.
///
/// The transport borrows an `HTTPClient` instead of owning one, so the application decides the
/// client's lifetime (and shuts it down once, at exit) and several clients can share a connection
/// pool.
public struct AsyncHTTPClientTransport: AppStoreHTTPTransport {
    private let client: HTTPClient
    private let timeout: Duration
    private let maximumBodySize: Int
    private let keepsTheStartOfLongerBodies: Bool

    /// Creates a transport over `client`; each exchange must finish within `timeout`, and bodies
    /// larger than `maximumBodySize` bytes are refused (Apple's largest answers are a few hundred KB),
    /// or, with `keepsTheStartOfLongerBodies`, cut to that size (for callers that read only the
    /// status and an excerpt, such as webhook deliveries: a receiver's long answer is still an answer).
    public init(
        client: HTTPClient = .shared, timeout: Duration = .seconds(30), maximumBodySize: Int = 4 * 1024 * 1024,
        keepsTheStartOfLongerBodies: Bool = false
    ) {
        self.client = client
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.keepsTheStartOfLongerBodies = keepsTheStartOfLongerBodies
    }

    /// Sends the request and collects the whole answer.
    public func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, timeout: TimeAmount(timeout))
        } catch let error as IOError {
            // NIO describes a refused connection as "connection reset (error set): Connection refused) (errno: 111)".
            throw TransportFailure(description: "\(request.url.host ?? "the server"):\(request.url.port.map(String.init) ?? request.url.scheme ?? ""): \(SystemErrorReason.of(error))")
        }
        var body: [UInt8] = []
        if keepsTheStartOfLongerBodies {
            for try await chunk in response.body {
                body += chunk.readableBytesView.prefix(maximumBodySize - body.count)
                if body.count == maximumBodySize { break }
            }
        } else {
            var buffer = try await response.body.collect(upTo: maximumBodySize)
            body = buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        return AppStoreHTTPResponse(
            status: Int(response.status.code),
            headers: response.headers.map { (name: $0.name, value: $0.value) },
            body: Data(body)
        )
    }
}

/// A socket error of an exchange, said plainly (`127.0.0.1:9: Connection refused`): it reaches
/// operators as a webhook endpoint's last error and in the reasons a call to Apple failed.
public struct TransportFailure: Error, CustomStringConvertible {
    public let description: String
}

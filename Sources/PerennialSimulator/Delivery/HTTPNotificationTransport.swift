public import AsyncHTTPClient
public import Foundation
public import NIOCore
import NIOHTTP1

/// Delivers notifications over HTTP with AsyncHTTPClient, the way Apple's notification service
/// POSTs to a server URL: JSON body, short timeout, status code as the only answer that counts.
public struct HTTPNotificationTransport: NotificationTransport {
    private let client: HTTPClient
    private let timeout: TimeAmount

    /// A transport on `client` giving up on an attempt after `timeout` (a non-answer is retried
    /// like a non-2xx one).
    public init(client: HTTPClient = .shared, timeout: TimeAmount = .seconds(5)) {
        self.client = client
        self.timeout = timeout
    }

    /// POSTs with `Content-Type: application/json`; any thrown error (refused, timed out) is a
    /// ``DeliveryOutcome/failed(reason:)``.
    public func post(_ body: Data, to url: URL) async -> DeliveryOutcome {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "App Store Simulator (Perennial)")
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: timeout)
            // Drain the body so the connection can be reused; its content does not matter to Apple.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return .answered(status: Int(response.status.code))
        } catch {
            return .failed(reason: String(describing: error))
        }
    }
}

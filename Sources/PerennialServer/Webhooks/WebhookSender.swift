import AsyncHTTPClient
import Foundation
public import PerennialAppStore
public import PerennialCore

/// Sends one event to one target — a webhook endpoint or an integration — and says what came of
/// it: what the webhook job does for every delivery and an operator's test event does once.
public struct WebhookSender: Sendable {
    /// What came of one send, with the HTTP status when the target answered.
    struct Sent: Sendable {
        let result: DeliveryResult
        let status: Int?
    }

    let transport: any AppStoreHTTPTransport
    /// The real time that dates each signature (the receiver checks it against its own clock).
    let wallClock: any TimeSource

    /// - Parameter transport: by default ``client`` with `requestTimeout`, keeping the first 64 KB
    ///   of an answer (only its status and an excerpt matter).
    public init(transport: (any AppStoreHTTPTransport)? = nil, requestTimeout: Duration = .seconds(10), wallClock: any TimeSource = WallClock()) {
        self.transport =
            transport ?? AsyncHTTPClientTransport(client: Self.client, timeout: requestTimeout, maximumBodySize: 64 * 1024, keepsTheStartOfLongerBodies: true)
        self.wallClock = wallClock
    }

    /// An HTTP client that does not follow redirects: following a 301 or 302 turns the POST into a
    /// GET without the event, which the new address answers 200 — an event marked delivered that
    /// nobody received. A redirect is an answer that is not 2xx, retried and shown to the operator.
    /// Process-wide, like AsyncHTTPClient's shared client, so never shut down.
    private static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    func send(_ event: OutboundEvent, to target: any DeliveryTarget) async -> Sent {
        let request: AppStoreHTTPRequest
        do {
            request = try target.request(for: event, at: wallClock.now)
        } catch {
            return Sent(result: .rejected("the request cannot be built: \(error)"), status: nil)
        }
        do {
            let response = try await transport.send(request)
            return Sent(result: target.result(of: response), status: response.status)
        } catch {
            return Sent(result: .retry("\(error)"), status: nil)
        }
    }
}

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

    /// - Parameter transport: AsyncHTTPClient with `requestTimeout` and a 64 KB answer limit by default.
    public init(transport: (any AppStoreHTTPTransport)? = nil, requestTimeout: Duration = .seconds(10), wallClock: any TimeSource = WallClock()) {
        self.transport = transport ?? AsyncHTTPClientTransport(timeout: requestTimeout, maximumBodySize: 64 * 1024)
        self.wallClock = wallClock
    }

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

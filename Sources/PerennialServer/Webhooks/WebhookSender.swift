import Foundation
public import PerennialAppStore
public import PerennialCore

/// One signed POST of a webhook body to one endpoint: what the webhook job does for every
/// delivery and an operator's test event does once.
public struct WebhookSender: Sendable {
    /// How an endpoint answered.
    public enum Outcome: Sendable, Equatable {
        /// A 2xx.
        case accepted(status: Int)
        /// Any other status.
        case refused(status: Int)
        /// No answer (connection refused, timeout, TLS).
        case unreachable(String)

        /// Why the delivery failed; nil when it was accepted.
        public var failure: String? {
            switch self {
            case .accepted: nil
            case .refused(let status): "HTTP \(status)"
            case .unreachable(let reason): reason
            }
        }
    }

    let transport: any AppStoreHTTPTransport
    /// The real time that dates each signature (the receiver checks it against its own clock).
    let wallClock: any TimeSource

    /// - Parameter transport: AsyncHTTPClient with `requestTimeout` and a 64 KB answer limit by default.
    public init(transport: (any AppStoreHTTPTransport)? = nil, requestTimeout: Duration = .seconds(10), wallClock: any TimeSource = WallClock()) {
        self.transport = transport ?? AsyncHTTPClientTransport(timeout: requestTimeout, maximumBodySize: 64 * 1024)
        self.wallClock = wallClock
    }

    /// POSTs `body` to `target`, signed with each of its secrets at the wall clock's now.
    func post(_ body: Data, to target: WebhookTarget) async -> Outcome {
        let signature = WebhookSignature(body: body, secrets: target.secrets.map { String(decoding: $0, as: UTF8.self) }, date: wallClock.now)
        let request = AppStoreHTTPRequest(
            method: .post, url: target.url,
            headers: ["Content-Type": "application/json", WebhookSignature.headerName: signature.header, "User-Agent": "perennial"],
            body: body)
        do {
            let response = try await transport.send(request)
            return (200..<300).contains(response.status) ? .accepted(status: response.status) : .refused(status: response.status)
        } catch {
            return .unreachable("\(error)")
        }
    }
}

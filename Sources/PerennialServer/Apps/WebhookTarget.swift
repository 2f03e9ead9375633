public import Foundation
import PerennialAppStore
import PerennialStorage

/// A resolved webhook endpoint of an app — from the configuration file or added through the admin
/// API: where events go, the HMAC-SHA256 keys that sign them and which events it wants.
public struct WebhookTarget: Sendable {
    public let url: URL
    /// The signing secrets' bytes: the current one, then — during a rotation's overlap — the
    /// previous one, so a receiver holding either accepts the delivery.
    public let secrets: [[UInt8]]
    /// The event types (the body's `type`) it is sent; nil for every type.
    public let eventTypes: Set<String>?

    /// Whether events can be posted to `url`: http or https, with a host, at most
    /// ``maximumURLLength`` characters. The file's endpoints and the admin API's are held to the
    /// same rule.
    static func canDeliver(to url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "") && url.host?.isEmpty == false
            && url.absoluteString.utf8.count <= maximumURLLength
    }

    /// Longer than any endpoint a receiver serves, short enough for PostgreSQL's index on the
    /// endpoints' URLs (a 3,000-character URL was a 503 there and accepted on SQLite).
    static let maximumURLLength = 2_048

    public init(url: URL, secret: [UInt8], eventTypes: Set<String>? = nil) {
        self.init(url: url, secrets: [secret], eventTypes: eventTypes)
    }

    init(url: URL, secrets: [[UInt8]], eventTypes: Set<String>?) {
        self.url = url
        self.secrets = secrets
        self.eventTypes = eventTypes
    }

    /// An endpoint added through the admin API, as signed at `now`.
    init(_ endpoint: StoredWebhookEndpoint, at now: Date) {
        self.init(url: endpoint.url, secrets: endpoint.signingSecrets(at: now).map { Array($0.utf8) }, eventTypes: endpoint.eventTypes.map(Set.init))
    }

}

extension WebhookTarget: DeliveryTarget {
    var key: String { url.absoluteString }

    func wants(_ type: String) -> Bool { eventTypes?.contains(type) ?? true }

    /// The webhook body, signed at `now` with each secret.
    func request(for event: OutboundEvent, at now: Date) -> AppStoreHTTPRequest {
        let signature = WebhookSignature(body: event.body, secrets: secrets.map { String(decoding: $0, as: UTF8.self) }, date: now)
        return AppStoreHTTPRequest(
            method: .post, url: url,
            headers: ["Content-Type": "application/json", WebhookSignature.headerName: signature.header, "User-Agent": "perennial"],
            body: event.body)
    }

    /// Anything but a 2xx is retried: a receiver's answer says nothing about its configuration.
    func result(of response: AppStoreHTTPResponse) -> DeliveryResult {
        (200..<300).contains(response.status) ? .accepted : .retry("HTTP \(response.status)")
    }
}

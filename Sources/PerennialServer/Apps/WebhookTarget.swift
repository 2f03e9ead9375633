public import Foundation
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

    /// Whether an event of `type` goes to this endpoint.
    func wants(_ type: String) -> Bool { eventTypes?.contains(type) ?? true }
}

public import Foundation

/// Where an app's events are delivered (by the webhook job, which reads this configuration), the
/// secret their HMAC-SHA256 signatures use, and which events go there.
public struct WebhookEndpoint: Sendable, Decodable {
    public var url: URL
    public var secret: SecretValue
    /// The event types (``WebhookEventTypes``) the endpoint is sent; absent for every type.
    public var eventTypes: [String]?

    public init(url: URL, secret: SecretValue, eventTypes: [String]? = nil) {
        self.url = url
        self.secret = secret
        self.eventTypes = eventTypes
    }
}

public import Foundation

/// Where an app's events are delivered (by the webhook job, which reads this configuration) and
/// the secret their HMAC-SHA256 signatures use.
public struct WebhookEndpoint: Sendable, Decodable {
    public var url: URL
    public var secret: SecretValue

    public init(url: URL, secret: SecretValue) {
        self.url = url
        self.secret = secret
    }
}

public import Foundation

/// A resolved webhook endpoint of an app: where events go and the HMAC-SHA256 key that signs them.
public struct WebhookTarget: Sendable {
    public let url: URL
    /// The signing secret's bytes, read from the configuration (usually `"env:NAME"`).
    public let secret: [UInt8]

    public init(url: URL, secret: [UInt8]) {
        self.url = url
        self.secret = secret
    }
}

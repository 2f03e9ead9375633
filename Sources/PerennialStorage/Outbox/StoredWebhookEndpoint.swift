public import Foundation

/// A webhook endpoint added through the admin API (beside those of the configuration file): where
/// an app's events go, signed with which secrets, which events, and whether it is paused.
public struct StoredWebhookEndpoint: Hashable, Sendable, Codable {
    /// `whep_` and a UUID.
    public var id: String
    public var appBundleID: String
    public var url: URL
    /// The secret deliveries are signed with.
    public var secret: String
    /// The secret before the last rotation, still signed with until ``previousSecretExpiresAt``, so
    /// a receiver can switch secrets without refusing a delivery.
    public var previousSecret: String?
    public var previousSecretExpiresAt: Date?
    /// A paused endpoint is sent nothing; the events of that time are not kept for it.
    public var isPaused: Bool
    /// The event types (`type` of the webhook body) it is sent; nil for every type.
    public var eventTypes: [String]?
    public var createdAt: Date
    /// The admin key's name that added it.
    public var createdBy: String

    public init(
        id: String, appBundleID: String, url: URL, secret: String, previousSecret: String? = nil, previousSecretExpiresAt: Date? = nil,
        isPaused: Bool = false, eventTypes: [String]? = nil, createdAt: Date, createdBy: String
    ) {
        self.id = id
        self.appBundleID = appBundleID
        self.url = url
        self.secret = secret
        self.previousSecret = previousSecret
        self.previousSecretExpiresAt = previousSecretExpiresAt
        self.isPaused = isPaused
        self.eventTypes = eventTypes
        self.createdAt = createdAt
        self.createdBy = createdBy
    }

    /// The secrets a delivery at `now` is signed with: the current one, then the previous one
    /// during the rotation's overlap.
    public func signingSecrets(at now: Date) -> [String] {
        guard let previousSecret, let until = previousSecretExpiresAt, now < until else { return [secret] }
        return [secret, previousSecret]
    }
}

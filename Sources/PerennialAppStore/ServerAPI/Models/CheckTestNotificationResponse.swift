/// The answer of Get Test Notification Status: the test notification and its delivery attempts.
public struct CheckTestNotificationResponse: Codable, Hashable, Sendable {
    /// A JWS whose payload is a ``ResponseBodyV2DecodedPayload``.
    public var signedPayload: String?
    public var sendAttempts: [SendAttemptItem]?

    /// Creates a response.
    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}

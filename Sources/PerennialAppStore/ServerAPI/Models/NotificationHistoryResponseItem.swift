/// One notification Apple sent (or tried to send), with its delivery attempts — what a
/// reconciliation job replays when notifications were missed.
public struct NotificationHistoryResponseItem: Codable, Hashable, Sendable {
    /// A JWS whose payload is a ``ResponseBodyV2DecodedPayload``.
    public var signedPayload: String?
    public var sendAttempts: [SendAttemptItem]?

    /// Creates an item.
    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}

/// One retention message and its review state.
public struct GetMessageListResponseItem: Codable, Hashable, Sendable {
    public var messageIdentifier: String?
    /// Apple's review state (`APPROVED`, …), raw.
    public var messageState: String?

    /// Creates an item.
    public init(messageIdentifier: String? = nil, messageState: String? = nil) {
        self.messageIdentifier = messageIdentifier
        self.messageState = messageState
    }
}

/// The answer of the Retention Messaging message list (outside the engine; modelled so every
/// Server API answer decodes).
public struct GetMessageListResponse: Codable, Hashable, Sendable {
    public var messageIdentifiers: [GetMessageListResponseItem]?

    /// Creates a response.
    public init(messageIdentifiers: [GetMessageListResponseItem]? = nil) {
        self.messageIdentifiers = messageIdentifiers
    }
}

/// The answer of Get Default Message (Retention Messaging): the message shown by default for a
/// product and locale.
public struct GetDefaultMessageResponse: Codable, Hashable, Sendable {
    public var messageIdentifier: String?

    /// Creates a response.
    public init(messageIdentifier: String? = nil) {
        self.messageIdentifier = messageIdentifier
    }
}

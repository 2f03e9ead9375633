/// The answer of Get Realtime URL (Retention Messaging): where Apple asks for real-time messages.
public struct GetRealtimeURLResponse: Codable, Hashable, Sendable {
    public var realtimeURL: String?

    /// Creates a response.
    public init(realtimeURL: String? = nil) {
        self.realtimeURL = realtimeURL
    }
}

/// The body of every error response: `{"error": "<code>", "message": "<sentence>"}`.
public struct ErrorBody: Codable, Equatable, Sendable {
    /// A stable machine code (`invalidSignature`, `wrongBundleId`, …).
    public var error: String
    /// What went wrong, with the offending value, for a human.
    public var message: String

    public init(error: String, message: String) {
        self.error = error
        self.message = message
    }
}

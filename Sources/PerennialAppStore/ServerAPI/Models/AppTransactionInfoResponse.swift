/// The answer of Get App Transaction Info.
public struct AppTransactionInfoResponse: Codable, Hashable, Sendable {
    /// A JWS whose payload is an ``AppTransaction``.
    public var signedAppTransactionInfo: String?

    /// Creates a response.
    public init(signedAppTransactionInfo: String? = nil) {
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}

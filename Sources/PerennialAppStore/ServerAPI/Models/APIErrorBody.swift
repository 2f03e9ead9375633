/// The body of an App Store Server API error (`{"errorCode": 4040010, "errorMessage": "…"}`).
///
/// Only the shape lives here; what a code means (and whether it is retryable) belongs to the
/// client, which owns the retry policy.
public struct APIErrorBody: Codable, Hashable, Sendable {
    @Lenient<IntegerNumber<Int64>> public var errorCode: Int64?
    public var errorMessage: String?

    /// Creates an error body.
    public init(errorCode: Int64? = nil, errorMessage: String? = nil) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}

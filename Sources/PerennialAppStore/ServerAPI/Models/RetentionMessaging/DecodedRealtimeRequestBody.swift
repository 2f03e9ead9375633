public import Foundation

/// The verified payload Apple sends to a Retention Messaging real-time URL.
public struct DecodedRealtimeRequestBody: Codable, Hashable, Sendable {
    @Lenient<IdentifierText> public var originalTransactionId: String?
    @Lenient<IntegerNumber<Int64>> public var appAppleId: Int64?
    public var productId: String?
    public var userLocale: String?
    public var requestIdentifier: String?
    public var environment: AppleEnvironment?
    @Lenient<EpochMilliseconds> public var signedDate: Date?

    /// Creates a body.
    public init(
        originalTransactionId: String? = nil,
        appAppleId: Int64? = nil,
        productId: String? = nil,
        userLocale: String? = nil,
        requestIdentifier: String? = nil,
        environment: AppleEnvironment? = nil,
        signedDate: Date? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.environment = environment
        self.signedDate = signedDate
    }
}

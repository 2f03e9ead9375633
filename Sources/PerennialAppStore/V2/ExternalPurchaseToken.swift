public import Foundation

/// The `externalPurchaseToken` of an EXTERNAL_PURCHASE_TOKEN notification. It names no
/// environment: Apple marks sandbox tokens by an `externalPurchaseId` starting with `SANDBOX`.
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
    public var externalPurchaseId: String?
    @Lenient<EpochMilliseconds> public var tokenCreationDate: Date?
    @Lenient<IntegerNumber<Int64>> public var appAppleId: Int64?
    public var bundleId: String?

    /// Creates a token.
    public init(
        externalPurchaseId: String? = nil,
        tokenCreationDate: Date? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
    }

    /// Whether the token belongs to the sandbox, by Apple's `SANDBOX` prefix convention.
    public var isSandbox: Bool {
        externalPurchaseId?.hasPrefix("SANDBOX") ?? false
    }
}

public import Foundation

/// The payload of a signed app transaction (`signedAppTransactionInfo`): the purchase of the app
/// itself, which proves who bought the app and on which platform.
public struct AppTransaction: Codable, Hashable, Sendable {
    /// The environment the app was bought in (Apple types it as an environment).
    public var receiptType: AppleEnvironment?
    @Lenient<IntegerNumber<Int64>> public var appAppleId: Int64?
    public var bundleId: String?
    public var applicationVersion: String?
    @Lenient<IntegerNumber<Int64>> public var versionExternalIdentifier: Int64?
    @Lenient<EpochMilliseconds> public var receiptCreationDate: Date?
    @Lenient<EpochMilliseconds> public var originalPurchaseDate: Date?
    public var originalApplicationVersion: String?
    public var deviceVerification: String?
    public var deviceVerificationNonce: UUID?
    @Lenient<EpochMilliseconds> public var preorderDate: Date?
    @Lenient<IdentifierText> public var appTransactionId: String?
    public var originalPlatform: PurchasePlatform?
    @Lenient<EpochMilliseconds> public var signedDate: Date?

    /// Creates an app transaction.
    public init(
        receiptType: AppleEnvironment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        applicationVersion: String? = nil,
        versionExternalIdentifier: Int64? = nil,
        receiptCreationDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        originalApplicationVersion: String? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: UUID? = nil,
        preorderDate: Date? = nil,
        appTransactionId: String? = nil,
        originalPlatform: PurchasePlatform? = nil,
        signedDate: Date? = nil
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
        self.signedDate = signedDate
    }
}

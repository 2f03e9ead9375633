public import Foundation

/// What a verified StoreKit 2 `AppTransaction` proves about an app user: when the app itself was
/// first bought and in which version, so an app that went from paid to freemium can honour the
/// customers who paid for it.
public struct OriginalAppPurchase: Hashable, Sendable, Codable {
    /// Apple's id of the app's purchase for one Apple account (`appTransactionId`); nil in app
    /// transactions signed before iOS 18.4, which do not carry it.
    public var appTransactionID: String?
    /// The app version (`CFBundleVersion` on iOS) the customer first bought or downloaded.
    public var originalApplicationVersion: String
    public var originalPurchaseDate: Date
    public var environment: AppStoreEnvironment
    /// Where the customer first got the app (Apple's `originalPlatform`: `iOS`, `macOS`, `tvOS`,
    /// `visionOS`, kept raw as Apple adds platforms): a universal purchase bought on the Mac was
    /// paid for there, which an app honouring its paying customers may want to tell. Nil in app
    /// transactions signed before iOS 18.4, which do not carry it.
    public var originalPlatform: String?

    public init(
        appTransactionID: String?, originalApplicationVersion: String, originalPurchaseDate: Date, environment: AppStoreEnvironment,
        originalPlatform: String? = nil
    ) {
        self.appTransactionID = appTransactionID
        self.originalApplicationVersion = originalApplicationVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.environment = environment
        self.originalPlatform = originalPlatform
    }
}

/// One app of the catalog. Products and subscription groups belong to an app so that evidence for
/// another bundle can never unlock them.
public struct App: Hashable, Sendable, Codable {
    public let bundleID: String
    /// The app's Apple id (`appAppleId`), which production notifications carry; nil until the app
    /// is on the App Store.
    public let appAppleID: Int64?
    /// The Billing Grace Period set in App Store Connect (3, 16 or 28 days; nil when off): once a
    /// subscription has recovered or expired, its renewal info no longer says how long its grace
    /// lasted, and the analytics take it from here (docs/analytics.md).
    public let billingGracePeriodDays: Int?

    /// An app; `appAppleID` may be added once the app is on the App Store.
    public init(bundleID: String, appAppleID: Int64? = nil, billingGracePeriodDays: Int? = nil) {
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.billingGracePeriodDays = billingGracePeriodDays
    }
}

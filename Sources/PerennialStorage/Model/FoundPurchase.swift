/// A purchase found by one of its transaction ids, for support: which subscription it belongs to
/// and who owns it.
public struct FoundPurchase: Hashable, Sendable {
    public var originalTransactionID: String
    /// Nil while nobody presented the purchase (Apple told about it first).
    public var owner: AppUserID?
    /// The app the owner bound it in; nil with no owner.
    public var appBundleID: String?

    public init(originalTransactionID: String, owner: AppUserID?, appBundleID: String?) {
        self.originalTransactionID = originalTransactionID
        self.owner = owner
        self.appBundleID = appBundleID
    }
}

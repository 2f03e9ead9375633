public import Foundation

/// An offering as the operator defined it for an app: the products a paywall sells, in order,
/// what the app shows with them, and who it is meant for. Kept outside the catalog file so an
/// app's paywall changes without a release or a restart.
public struct OfferingDefinition: Hashable, Sendable, Codable {
    /// Chosen by the operator ("default", "winter-sale"); unique in its app.
    public var id: String
    public var appBundleID: String
    /// Product ids of the app's catalog, in the order the paywall shows them.
    public var productIDs: [String]
    /// Per locale ("en", "de-CH"), a JSON object as text (keys sorted): the app's own description
    /// of its paywall, which the server keeps and never interprets.
    public var metadata: [String: String]
    public var targeting: OfferingTargeting
    /// Among the offerings a request matches, the highest wins.
    public var priority: Int
    /// Shown when no offering matches; at most one per app.
    public var isDefault: Bool
    public var updatedAt: Date
    /// The admin key's name that last wrote it.
    public var updatedBy: String

    public init(
        id: String, appBundleID: String, productIDs: [String], metadata: [String: String] = [:], targeting: OfferingTargeting = OfferingTargeting(),
        priority: Int = 0, isDefault: Bool = false, updatedAt: Date, updatedBy: String
    ) {
        self.id = id
        self.appBundleID = appBundleID
        self.productIDs = productIDs
        self.metadata = metadata
        self.targeting = targeting
        self.priority = priority
        self.isDefault = isDefault
        self.updatedAt = updatedAt
        self.updatedBy = updatedBy
    }
}

public import Foundation

/// A purchase that is not an auto-renewable subscription: consumable, non-consumable or
/// non-renewing subscription.
public struct PurchaseState: Hashable, Sendable, Codable {
    public var transactionID: String
    public var originalTransactionID: String
    public var productID: String
    /// From the catalog, else from the transaction; nil when neither says.
    public var productType: ProductType?
    public var purchaseDate: Date
    /// End of a non-renewing subscription: the transaction's, else purchase date plus the catalog
    /// duration; nil for purchases that do not expire.
    public var expiresDate: Date?
    public var quantity: Int
    public var ownership: Ownership
    public var revocation: Revocation?
    public var price: Money?
    public var environment: AppStoreEnvironment
    /// Not revoked and, for what expires, not expired at the view's instant.
    public var isActive: Bool
    /// The transaction this purchase stands for; events are derived from its changes.
    public var transaction: Transaction
}

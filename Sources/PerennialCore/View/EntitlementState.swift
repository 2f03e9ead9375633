public import Foundation

/// One entitlement the subscriber holds or held, with the grant that decides it.
///
/// When several purchases grant the same entitlement the best grant is reported: an active one
/// over an inactive one, then the one that lasts longest (no expiry beats any date).
public struct EntitlementState: Hashable, Sendable, Codable {
    public var entitlementID: String
    public var isActive: Bool
    /// Until when access lasts (or lasted); nil for a grant that does not expire (a
    /// non-consumable) or an inactive grant that never gave access.
    public var expiresDate: Date?
    /// The product that grants it.
    public var productID: String
    /// The subscription (or purchase) that grants it.
    public var originalTransactionID: String
    public var transactionID: String
    /// The operator's ``EntitlementGrant`` that decides it; nil when a purchase does (then the
    /// product and transaction ids are the purchase's, else the grant's id stands in for them).
    public var grantID: String? = nil

    /// Position of the entitlement in the catalog, which orders a view's entitlements. Follows
    /// from `entitlementID`, so it is neither encoded nor compared.
    var catalogOrder: Int = 0

    private enum CodingKeys: String, CodingKey {
        case entitlementID, isActive, expiresDate, productID, originalTransactionID, transactionID, grantID
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entitlementID == rhs.entitlementID && lhs.isActive == rhs.isActive && lhs.expiresDate == rhs.expiresDate
            && lhs.productID == rhs.productID && lhs.originalTransactionID == rhs.originalTransactionID
            && lhs.transactionID == rhs.transactionID && lhs.grantID == rhs.grantID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entitlementID)
        hasher.combine(isActive)
        hasher.combine(expiresDate)
        hasher.combine(productID)
        hasher.combine(originalTransactionID)
        hasher.combine(transactionID)
        hasher.combine(grantID)
    }

    /// Whether this grant should be reported rather than `other` for the same entitlement.
    func outranks(_ other: EntitlementState) -> Bool {
        if isActive != other.isActive { return isActive }
        switch (expiresDate, other.expiresDate) {
        case (nil, nil): return false
        case (nil, _): return isActive
        case (_, nil): return !other.isActive
        case (let mine?, let theirs?): return mine > theirs
        }
    }
}

public import Foundation

/// The filters of Get Transaction History (v2), as query parameters.
///
/// Values are Apple's raw strings (`AUTO_RENEWABLE`, `DESCENDING`, `FAMILY_SHARED`, …) so the
/// client does not depend on the wire models' enums; dates are sent as epoch milliseconds.
public struct TransactionHistoryQuery: Sendable, Equatable {
    /// Only transactions purchased at or after this date.
    public var startDate: Date?
    /// Only transactions purchased before this date.
    public var endDate: Date?
    /// Only these product IDs.
    public var productIDs: [String]
    /// Only these product types (`AUTO_RENEWABLE`, `NON_RENEWABLE`, `CONSUMABLE`, `NON_CONSUMABLE`).
    public var productTypes: [String]
    /// `ASCENDING` or `DESCENDING` by modification date.
    public var sort: String?
    /// Only these subscription group identifiers.
    public var subscriptionGroupIdentifiers: [String]
    /// `FAMILY_SHARED` or `PURCHASED`.
    public var inAppOwnershipType: String?
    /// Only revoked (true) or only unrevoked (false) transactions.
    public var revoked: Bool?

    /// Creates a query; everything defaults to "no filter".
    public init(
        startDate: Date? = nil,
        endDate: Date? = nil,
        productIDs: [String] = [],
        productTypes: [String] = [],
        sort: String? = nil,
        subscriptionGroupIdentifiers: [String] = [],
        inAppOwnershipType: String? = nil,
        revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIDs = productIDs
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// The query parameters, in a fixed order.
    public var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let startDate { items.append(URLQueryItem(name: "startDate", value: Self.milliseconds(startDate))) }
        if let endDate { items.append(URLQueryItem(name: "endDate", value: Self.milliseconds(endDate))) }
        items += productIDs.map { URLQueryItem(name: "productId", value: $0) }
        items += productTypes.map { URLQueryItem(name: "productType", value: $0) }
        if let sort { items.append(URLQueryItem(name: "sort", value: sort)) }
        items += subscriptionGroupIdentifiers.map { URLQueryItem(name: "subscriptionGroupIdentifier", value: $0) }
        if let inAppOwnershipType { items.append(URLQueryItem(name: "inAppOwnershipType", value: inAppOwnershipType)) }
        if let revoked { items.append(URLQueryItem(name: "revoked", value: String(revoked))) }
        return items
    }

    private static func milliseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }
}

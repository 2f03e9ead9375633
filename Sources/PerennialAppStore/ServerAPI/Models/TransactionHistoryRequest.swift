public import Foundation
public import PerennialCore

/// The filters of Get Transaction History, sent as URL query parameters (Apple's names, repeated
/// for lists, dates as epoch milliseconds).
public struct TransactionHistoryRequest: Hashable, Sendable {
    /// A product type filter value (`productType`).
    public struct ProductType: OpenValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Auto-renewable subscriptions.
        public static let autoRenewable: Self = "AUTO_RENEWABLE"
        /// Non-renewing subscriptions.
        public static let nonRenewable: Self = "NON_RENEWABLE"
        /// Consumables.
        public static let consumable: Self = "CONSUMABLE"
        /// Non-consumables.
        public static let nonConsumable: Self = "NON_CONSUMABLE"
    }

    /// The order of the answer (`sort`), by last modification.
    public struct Order: OpenValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Oldest first.
        public static let ascending: Self = "ASCENDING"
        /// Newest first.
        public static let descending: Self = "DESCENDING"
    }

    public var startDate: Date?
    public var endDate: Date?
    public var productIds: [String]
    public var productTypes: [ProductType]
    public var sort: Order?
    public var subscriptionGroupIdentifiers: [String]
    public var inAppOwnershipType: AppleOwnershipType?
    /// Only revoked (true) or only unrevoked (false) transactions.
    public var revoked: Bool?

    /// Creates a request; everything defaults to "no filter".
    public init(
        startDate: Date? = nil,
        endDate: Date? = nil,
        productIds: [String] = [],
        productTypes: [ProductType] = [],
        sort: Order? = nil,
        subscriptionGroupIdentifiers: [String] = [],
        inAppOwnershipType: AppleOwnershipType? = nil,
        revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// The query parameters, in a fixed order; `revision` (the page cursor) comes first when given.
    public func queryItems(revision: String? = nil) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let revision { items.append(URLQueryItem(name: "revision", value: revision)) }
        if let startDate { items.append(URLQueryItem(name: "startDate", value: Self.milliseconds(startDate))) }
        if let endDate { items.append(URLQueryItem(name: "endDate", value: Self.milliseconds(endDate))) }
        items += productIds.map { URLQueryItem(name: "productId", value: $0) }
        items += productTypes.map { URLQueryItem(name: "productType", value: $0.rawValue) }
        if let sort { items.append(URLQueryItem(name: "sort", value: sort.rawValue)) }
        items += subscriptionGroupIdentifiers.map { URLQueryItem(name: "subscriptionGroupIdentifier", value: $0) }
        if let inAppOwnershipType {
            items.append(URLQueryItem(name: "inAppOwnershipType", value: inAppOwnershipType.rawValue))
        }
        if let revoked { items.append(URLQueryItem(name: "revoked", value: String(revoked))) }
        return items
    }

    private static func milliseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }
}

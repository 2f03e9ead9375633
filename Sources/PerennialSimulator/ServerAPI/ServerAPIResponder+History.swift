import Foundation
import PerennialAppStore
import PerennialCore

/// Get Transaction History v2: `GET /inApps/v2/history/{transactionId}`, and the deprecated v1
/// (`GET /inApps/v1/history/{transactionId}`), which Apple still serves with the same filters.
extension ServerAPIResponder {
    /// The filters of one history request, validated with Apple's codes.
    private struct HistoryFilter {
        var startDate: Date?
        var endDate: Date?
        var productIDs: Set<String> = []
        var productTypes: Set<String> = []
        var groupIDs: Set<String> = []
        var ownership: String?
        var revoked: Bool?
        var descending = false
        var revision: ServerAPIPageCursor?

        init(_ request: ServerAPIRequest) throws(ServerAPIFailure) {
            if let text = request.queryValues("revision").last {
                guard let cursor = ServerAPIPageCursor(token: text) else { throw .invalidRevision }
                revision = cursor
            }
            if let text = request.queryValues("startDate").last {
                guard let date = Self.date(text) else { throw .badRequest(.invalidStartDate, "Invalid request. The start date is not valid.") }
                startDate = date
            }
            if let text = request.queryValues("endDate").last {
                guard let date = Self.date(text) else { throw .badRequest(.invalidEndDate, "Invalid request. The end date is not valid.") }
                endDate = date
            }
            if let startDate, let endDate, startDate > endDate {
                throw .badRequest(.startDateAfterEndDate, "Invalid request. The start date is later than the end date.")
            }
            for id in request.queryValues("productId") {
                guard !id.isEmpty else { throw .badRequest(.invalidProductId, "Invalid request. The product id is invalid.") }
                productIDs.insert(id)
            }
            for type in request.queryValues("productType") {
                guard Self.productTypes[type] != nil else {
                    throw .badRequest(.invalidProductType, "Invalid request. The product type is invalid.")
                }
                productTypes.insert(type)
            }
            for id in request.queryValues("subscriptionGroupIdentifier") {
                guard !id.isEmpty else {
                    throw .badRequest(.invalidSubscriptionGroupIdentifier, "Invalid request. The subscription group identifier is invalid.")
                }
                groupIDs.insert(id)
            }
            if let text = request.queryValues("inAppOwnershipType").last {
                guard text == AppleOwnershipType.purchased.rawValue || text == AppleOwnershipType.familyShared.rawValue else {
                    throw .badRequest(.invalidInAppOwnershipType, "Invalid request. The in-app ownership type is invalid.")
                }
                ownership = text
            }
            if let text = request.queryValues("revoked").last {
                guard text == "true" || text == "false" else { throw .badRequest(.invalidRevoked, "Invalid request. The revoked parameter is invalid.") }
                revoked = text == "true"
            }
            if let text = request.queryValues("sort").last {
                guard text == "ASCENDING" || text == "DESCENDING" else { throw .badRequest(.invalidSort, "Invalid request. The sort parameter is invalid.") }
                descending = text == "DESCENDING"
            }
        }

        /// Apple's `productType` filter values and the product types they select.
        static let productTypes: [String: ProductType] = [
            "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewing, "CONSUMABLE": .consumable,
            "NON_CONSUMABLE": .nonConsumable,
        ]

        static func date(_ text: String) -> Date? {
            guard let milliseconds = Int64(text), milliseconds >= 0 else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        }

        func accepts(_ transaction: SimulatedTransaction) -> Bool {
            if let startDate, transaction.purchaseDate < startDate { return false }
            if let endDate, transaction.purchaseDate >= endDate { return false }
            if !productIDs.isEmpty, !productIDs.contains(transaction.productID) { return false }
            if !productTypes.isEmpty, !productTypes.contains(where: { Self.productTypes[$0] == transaction.productType }) { return false }
            if !groupIDs.isEmpty, !groupIDs.contains(transaction.subscriptionGroupIdentifier ?? "") { return false }
            if let ownership, AppleOwnershipType(simulated: transaction.inAppOwnershipType)?.rawValue != ownership { return false }
            if let revoked, (transaction.revocationDate != nil) != revoked { return false }
            return true
        }
    }

    /// Up to 20 of the customer's transactions per page, ordered by their last modification
    /// (a revocation modifies a transaction), `revision` continuing after the previous page.
    ///
    /// v1 (`excludingFinishedConsumables`) leaves out consumables unless refunded or revoked: the
    /// store does not know which the app finished, so it takes them all as finished, as an app
    /// that delivers what it sells finishes them.
    func transactionHistory(
        transactionID: String, request: ServerAPIRequest, backend: any SimulatorBackend, now: Date,
        excludingFinishedConsumables: Bool = false
    ) async throws(ServerAPIFailure) -> ServerAPIResponse {
        let filter = try HistoryFilter(request)
        let lookup = ServerAPILookup(state: await backend.currentState(), bundleID: bundleID)
        let selected = try lookup.customerTransactions(ofTransaction: transactionID).filter(filter.accepts).filter { transaction in
            !excludingFinishedConsumables || transaction.productType != .consumable || transaction.revocationDate != nil
        }
        let page = Self.page(
            of: selected, sortDate: { $0.revocationDate ?? $0.purchaseDate }, descending: filter.descending,
            after: filter.revision)
        return .json(
            HistoryResponse(
                revision: page.cursor.token, hasMore: page.hasMore, bundleId: bundleID, appAppleId: statedAppAppleID,
                environment: appleEnvironment, signedTransactions: try page.items.map { item throws(ServerAPIFailure) in try sign(item, now: now) }))
    }

    /// One page of `transactions` in (`sortDate`, numeric id) order after `cursor`, with the
    /// cursor of its last item (or the given one again for an empty page, so polling later sees
    /// what was added).
    static func page(
        of transactions: [SimulatedTransaction], sortDate: (SimulatedTransaction) -> Date, descending: Bool,
        after cursor: ServerAPIPageCursor?
    ) -> (items: [SimulatedTransaction], cursor: ServerAPIPageCursor, hasMore: Bool) {
        let keyed = transactions.map { (key: ServerAPIPageCursor(milliseconds: ServerAPIPageCursor.milliseconds(sortDate($0)), identifier: $0.transactionID), transaction: $0) }
        let ordered = keyed.sorted { descending ? precedes($1.key, $0.key) : precedes($0.key, $1.key) }
        let remaining = ordered.filter { entry in
            guard let cursor else { return true }
            return descending ? precedes(entry.key, cursor) : precedes(cursor, entry.key)
        }
        let items = remaining.prefix(ServerAPIPageCursor.pageSize)
        let last = items.last?.key ?? cursor ?? ServerAPIPageCursor(milliseconds: descending ? Int64.max : 0, identifier: "0")
        return (items.map(\.transaction), last, remaining.count > items.count)
    }

    /// Cursor order: by milliseconds, then by id as a number (ids count up within a run).
    static func precedes(_ lhs: ServerAPIPageCursor, _ rhs: ServerAPIPageCursor) -> Bool {
        if lhs.milliseconds != rhs.milliseconds { return lhs.milliseconds < rhs.milliseconds }
        if lhs.identifier.count != rhs.identifier.count { return lhs.identifier.count < rhs.identifier.count }
        return lhs.identifier < rhs.identifier
    }
}

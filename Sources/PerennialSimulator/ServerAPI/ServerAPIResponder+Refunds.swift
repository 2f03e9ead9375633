import Foundation
import PerennialAppStore
import PerennialCore

/// Get Refund History v2: `GET /inApps/v2/refund/lookup/{transactionId}`.
extension ServerAPIResponder {
    /// The customer's refunded transactions, oldest refund first, 20 per page. Family Sharing
    /// revocations are not refunds and are left out, as Apple does.
    func refundHistory(
        transactionID: String, request: ServerAPIRequest, backend: any SimulatorBackend, now: Date
    ) async throws(ServerAPIFailure) -> ServerAPIResponse {
        var cursor: ServerAPIPageCursor?
        if let text = request.queryValues("revision").last {
            guard let parsed = ServerAPIPageCursor(token: text) else { throw .invalidRevision }
            cursor = parsed
        }
        let lookup = ServerAPILookup(state: await backend.currentState(), bundleID: bundleID)
        let refunded = try lookup.customerTransactions(ofTransaction: transactionID).filter {
            $0.revocationDate != nil && $0.revocationType != .familyRevoke
        }
        let page = Self.page(of: refunded, sortDate: { $0.revocationDate ?? $0.purchaseDate }, descending: false, after: cursor)
        return .json(
            RefundHistoryResponse(
                signedTransactions: try page.items.map { item throws(ServerAPIFailure) in try sign(item, now: now) },
                revision: page.cursor.token, hasMore: page.hasMore))
    }
}

import Foundation
import PerennialAppStore

/// Look Up Order ID: `GET /inApps/v1/lookup/{orderId}`.
extension ServerAPIResponder {
    /// The transaction of the order (see ``SimulatedOrderID``); an order id the store does not
    /// know is answered as Apple does, with HTTP 200 and `status` 1 (invalid).
    func orderLookup(orderID: String, backend: any SimulatorBackend, now: Date) async throws(ServerAPIFailure) -> ServerAPIResponse {
        let state = await backend.currentState()
        guard let transactionID = SimulatedOrderID.transactionID(forOrderID: orderID),
            let transaction = state.transaction(id: transactionID), transaction.bundleID == bundleID
        else {
            return .json(OrderLookupResponse(status: .invalid))
        }
        return .json(OrderLookupResponse(status: .valid, signedTransactions: [try sign(transaction, now: now)]))
    }
}

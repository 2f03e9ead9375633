import Foundation
import PerennialAppStore

/// Finish Transaction (Server API 1.20): `POST /inApps/v1/transactions/{transactionId}/finish`.
extension ServerAPIResponder {
    /// Finishes the transaction for the device of the customer holding it, as the app's
    /// `Transaction.finish()` would, so `Transaction.unfinished` stops replaying it. Finishing is
    /// idempotent, as on the device: a second call answers 200 again. Apple's codes: 4000006 for an
    /// id that is not a transaction id, 4040010 for one this app does not have.
    func finishTransaction(transactionID: String, backend: any SimulatorBackend) async throws(ServerAPIFailure) -> ServerAPIResponse {
        let (lifecycle, transaction) = try ServerAPILookup(state: await backend.currentState(), bundleID: bundleID).transaction(transactionID)
        await backend.finishTransaction(id: transaction.transactionID, accountID: lifecycle.account.id)
        return .empty(status: 200)
    }
}

import Foundation
import PerennialAppStore

/// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
extension ServerAPIResponder {
    /// The current version of one transaction, signed now (a refunded transaction carries its
    /// revocation fields).
    func transactionInfo(transactionID: String, backend: any SimulatorBackend, now: Date) async throws(ServerAPIFailure) -> ServerAPIResponse {
        let lookup = ServerAPILookup(state: await backend.currentState(), bundleID: bundleID)
        let transaction = try lookup.transaction(transactionID).transaction
        return .json(TransactionInfoResponse(signedTransactionInfo: try sign(transaction, now: now)))
    }
}

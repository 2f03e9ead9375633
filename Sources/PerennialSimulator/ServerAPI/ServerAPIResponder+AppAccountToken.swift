import Foundation
import PerennialAppStore
import PerennialCore

/// Set App Account Token: `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`.
extension ServerAPIResponder {
    /// Binds the purchase to `{"appAccountToken": "<UUID>"}` through the lifecycle, so every
    /// transaction and renewal info signed afterwards carries it. Apple's codes: 4000183 for a
    /// value that is not a UUID, 4000187 for an id that is not an original transaction id,
    /// 4000185 for Family Sharing access, 4040010 for an unknown id.
    func setAppAccountToken(
        originalTransactionID: String, request: ServerAPIRequest, backend: any SimulatorBackend
    ) async throws(ServerAPIFailure) -> ServerAPIResponse {
        guard let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any] else {
            throw .general("The request body is not a JSON object.")
        }
        guard let text = object["appAccountToken"] as? String, let token = UUID(uuidString: text) else {
            throw .badRequest(.invalidAppAccountTokenUUID, "Invalid request. The app account token field must be a valid UUID.")
        }
        let (lifecycle, transaction) = try ServerAPILookup(state: await backend.currentState(), bundleID: bundleID)
            .transaction(originalTransactionID)
        guard transaction.transactionID == lifecycle.originalTransactionID else {
            throw .badRequest(
                .transactionIdIsNotOriginalTransactionId, "Invalid request. The transaction ID provided is not an original transaction ID.")
        }
        guard lifecycle.ownership == .purchased else {
            throw .badRequest(.familyTransactionNotSupported, "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
        }
        do {
            _ = try await backend.perform(.setAppAccountToken(originalTransactionID: lifecycle.originalTransactionID, appAccountToken: token))
        } catch {
            throw .internalError(error.description)
        }
        return .empty(status: 200)
    }
}

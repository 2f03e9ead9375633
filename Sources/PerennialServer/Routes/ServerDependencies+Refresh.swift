import PerennialAppStore
import PerennialCore
import PerennialStorage

extension ServerDependencies {
    /// Asks Apple for the subscription's statuses now and applies them, attributed to `action`:
    /// how an operator's action that made Apple change a subscription brings the change in.
    func refresh(_ originalTransactionID: String, app: AppContext, client: AppStoreServerAPIClient, action: AdminAction) async throws {
        let answer = try await client.sendReturningData(.subscriptionStatuses(transactionID: originalTransactionID))
        let fallback = app.environments.first ?? .production
        let verified = try await app.verifier.subscriptionStatuses(answer, fallback: fallback)
        _ = try await pipeline(for: app).ingest(.appleAnswer(verified, originalTransactionID: originalTransactionID), now: clock.now, requestedBy: action)
    }
}

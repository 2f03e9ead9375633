import PerennialAppStore
import PerennialCore
import PerennialStorage

extension ServerDependencies {
    /// Asks Apple for the subscription's statuses now (and the charges missed since the last one
    /// held) and applies them, attributed to `action`: how an operator's action that made Apple
    /// change a subscription brings the change in.
    func refresh(_ originalTransactionID: String, app: AppContext, client: AppStoreServerAPIClient, action: AdminAction) async throws {
        let verified = try await AppleStatusQuery(storage: storage).serverAPIAnswer(
            originalTransactionID, app: app, client: client, fallback: app.environments.first ?? .production)
        _ = try await pipeline(for: app).ingest(.appleAnswer(verified, originalTransactionID: originalTransactionID), now: clock.now, requestedBy: action)
    }
}

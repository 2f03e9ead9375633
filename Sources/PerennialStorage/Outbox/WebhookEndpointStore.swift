/// The webhook endpoints operators add through the admin API: a capability of its own, which
/// ``SubscriberStorage`` is composed of, read by the webhook job at every round so that every
/// process sharing a database delivers to the same endpoints.
public protocol WebhookEndpointStore: Sendable {
    /// Adds an endpoint.
    /// - Returns: false when the app has an endpoint with the same URL already (nothing changed).
    func addWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool

    /// Replaces the stored form of the endpoint with `endpoint.id` in its app (pause, filters, secrets).
    /// - Returns: false when the app has no such endpoint (nothing changed).
    func updateWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool

    /// Removes an endpoint of an app.
    /// - Returns: the removed endpoint; nil when the app has no such endpoint.
    func removeWebhookEndpoint(id: String, appBundleID: String) async throws(StorageError) -> StoredWebhookEndpoint?

    /// The endpoints of one app (or of every app), oldest first.
    func webhookEndpoints(appBundleID: String?) async throws(StorageError) -> [StoredWebhookEndpoint]
}

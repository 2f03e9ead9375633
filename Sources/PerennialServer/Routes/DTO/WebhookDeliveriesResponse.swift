import Foundation
import PerennialStorage

/// `GET /admin/v1/webhooks/deliveries`: outbox entries with their delivery state, for an operator
/// chasing a receiver's missing events.
struct WebhookDeliveriesResponse: Encodable, Sendable {
    struct Delivery: Encodable, Sendable {
        let id: Int64
        let eventId: String
        let type: String
        let appUserId: String
        let bundleId: String
        let occurredAt: Date
        let createdAt: Date
        let state: String
        let attempts: Int
        let nextAttemptAt: Date?
        let deliveredAt: Date?
        let deadAt: Date?
        let lastError: String?
        let acceptedEndpoints: [String]

        init(_ delivery: WebhookDelivery) {
            let entry = delivery.entry
            id = entry.id
            eventId = entry.event.eventID
            type = entry.event.kind
            appUserId = entry.event.appUserID.rawValue
            bundleId = entry.event.appBundleID
            occurredAt = entry.event.occurredAt
            createdAt = entry.createdAt
            state = delivery.state.rawValue
            attempts = entry.attempts
            nextAttemptAt = entry.nextAttemptAt
            deliveredAt = entry.deliveredAt
            deadAt = delivery.deadAt
            lastError = delivery.lastError
            acceptedEndpoints = delivery.acceptedEndpoints
        }
    }

    let deliveries: [Delivery]
}

/// `POST /admin/v1/webhooks/replay`: which delivered events to send again.
struct WebhookReplayRequest: Decodable, Sendable {
    /// One app's events (its id in the configuration), or every app's; needed with `appUserId`
    /// when several apps are configured.
    let app: String?
    /// One user's events, or everyone's.
    let appUserId: String?
    /// ISO 8601; events enqueued at or after it, or all.
    let since: String?
}

/// The answer of the redeliver and replay routes.
struct WebhookRequeueResponse: Encodable, Sendable {
    /// How many deliveries went back to pending.
    let requeued: Int
}

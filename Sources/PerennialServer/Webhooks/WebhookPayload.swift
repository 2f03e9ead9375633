import PerennialWire
import Foundation
import PerennialCore
import PerennialStorage

/// The JSON body of one webhook delivery (documented in docs/webhooks.md): an envelope a receiver
/// can route on (`type`, `appUserId`, `appId`) and the event itself.
///
/// Built from the outbox row at each attempt, with the API's JSON format (``APIJSON``: ISO 8601
/// dates, sorted keys), so a retry sends the same bytes apart from nothing: the body does not
/// depend on the attempt.
struct WebhookPayload<Event: Encodable & Sendable>: Encodable, Sendable {
    /// The event's id, stable across retries and replays: receivers deduplicate on
    /// (`appUserId`, `id`).
    let id: String
    /// An event kind (`renewed`, `refunded`, …), an ownership decision, a grant's
    /// (`entitlementGranted`, `grantRevoked`), `consentRescinded` or `retentionRuleTriggered`.
    let type: String
    let occurredAt: Date
    let appUserId: String
    let appId: String
    let bundleId: String
    let event: Event

    fileprivate init(id: String, type: String, occurredAt: Date, appUserId: String, appID: String, bundleID: String, event: Event) {
        self.id = id
        self.type = type
        self.occurredAt = occurredAt
        self.appUserId = appUserId
        self.appId = appID
        bundleId = bundleID
        self.event = event
    }

    fileprivate init(draft: OutboxEntry.Draft, appID: String, event: Event) {
        self.init(
            id: draft.eventID, type: draft.kind, occurredAt: draft.occurredAt, appUserId: draft.appUserID.rawValue, appID: appID,
            bundleID: draft.appBundleID, event: event)
    }
}

/// Turns an outbox entry into the bytes of its ``WebhookPayload``: the stored event is decoded by
/// its kind and re-encoded in the API's JSON format.
enum WebhookBody {
    /// Why a stored event cannot become a body.
    struct Unreadable: Error, CustomStringConvertible {
        let eventID: String
        let reason: String
        var description: String { "outbox event \(eventID) cannot be read: \(reason)" }
    }

    /// What a test event carries: no subscriber's data.
    struct TestEvent: Encodable, Sendable {
        let message: String
    }

    /// The body of an operator's test event (`type` `test`, no app user), new at every call.
    static func test(appID: String, bundleID: String, at date: Date) throws -> Data {
        try WireJSON.encoder().encode(
            WebhookPayload<TestEvent>(
                id: "test_\(UUID().uuidString.lowercased())", type: "test", occurredAt: date, appUserId: "", appID: appID, bundleID: bundleID,
                event: TestEvent(message: "A test event from Perennial: this endpoint receives and verifies its webhooks.")))
    }

    /// The body bytes of `entry` for app `appID`.
    static func make(of entry: OutboxEntry, appID: String) throws(Unreadable) -> Data {
        let draft = entry.event
        do {
            if OwnershipChange.Decision(rawValue: draft.kind) != nil {
                let change = try JSONDecoder().decode(OwnershipChange.self, from: draft.payload)
                return try WireJSON.encoder().encode(WebhookPayload<OwnershipChange>(draft: draft, appID: appID, event: change))
            }
            if draft.kind == ConsentRescission.kind {
                let rescission = try JSONDecoder().decode(ConsentRescission.self, from: draft.payload)
                return try WireJSON.encoder().encode(WebhookPayload<ConsentRescission>(draft: draft, appID: appID, event: rescission))
            }
            if draft.kind == RetentionRuleChoice.kind {
                let choice = try JSONDecoder().decode(RetentionRuleChoice.self, from: draft.payload)
                return try WireJSON.encoder().encode(WebhookPayload<RetentionRuleChoice>(draft: draft, appID: appID, event: choice))
            }
            if EntitlementGrant.EventKind(rawValue: draft.kind) != nil {
                let grant = try JSONDecoder().decode(EntitlementGrant.self, from: draft.payload)
                return try WireJSON.encoder().encode(WebhookPayload<EntitlementGrant>(draft: draft, appID: appID, event: grant))
            }
            let event = try JSONDecoder().decode(SubscriberEvent.self, from: draft.payload)
            return try WireJSON.encoder().encode(WebhookPayload<SubscriberEvent>(draft: draft, appID: appID, event: event))
        } catch {
            throw Unreadable(eventID: draft.eventID, reason: "\(error)")
        }
    }
}

public import PerennialWire
public import Foundation
public import PerennialAppStore
public import PerennialCore
public import PerennialStorage

/// `GET /admin/v1/apps/{appId}/subscribers/{appUserId}/personal-data` and `perennial privacy
/// export`: everything Perennial keeps that names one app user, as the user's data-access request
/// is answered (GDPR art. 15): the subscriber now, the purchases bound to the user, the timeline
/// with the evidence behind each entry, the webhook events, the app's consumption report and the
/// retention rule's choice kept for the user.
public struct PersonalDataExport: Codable, Equatable, Sendable {
    public struct WebhookEvent: Codable, Equatable, Sendable {
        public var eventId: String
        public var type: String
        public var occurredAt: Date
        public var delivered: Bool
        /// The event as it is (or was) sent.
        public var payload: JSONValue
    }

    public var appUserId: String
    public var app: String
    public var exportedAt: Date
    public var appAccountToken: UUID?
    public var purchases: [PersonalData.BoundPurchase]
    public var subscriber: SubscriberResponse
    public var consumptionReport: ConsumptionReport?
    public var webhookEvents: [WebhookEvent]
    public var timeline: TimelineResponse
    /// The retention rule's choice stored for the user, as stored: whether or not it still applies.
    public var retentionChoice: RetentionRuleChoice?
}

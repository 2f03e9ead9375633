public import Foundation

/// One try at delivering one notification in one format, as Apple's notification history and a
/// scenario's timeline report it.
public struct DeliveryAttempt: Hashable, Sendable {
    /// The notification's idempotency key, the same on every retry and duplicate.
    public let notificationUUID: String
    public let version: NotificationVersion
    /// Apple's notification type string (V2 spelling, e.g. `DID_RENEW`, also for V1 deliveries).
    public let type: String
    public let subtype: String?
    /// 1 for the first attempt, counting up through retries; duplicates count as attempts too.
    public let attempt: Int
    /// The simulator's instant when the attempt was made.
    public let at: Date
    public let outcome: DeliveryOutcome

    public init(
        notificationUUID: String, version: NotificationVersion, type: String, subtype: String?,
        attempt: Int, at: Date, outcome: DeliveryOutcome
    ) {
        self.notificationUUID = notificationUUID
        self.version = version
        self.type = type
        self.subtype = subtype
        self.attempt = attempt
        self.at = at
        self.outcome = outcome
    }
}

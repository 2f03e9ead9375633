public import Foundation

/// A notification the simulator emitted and everything that happened to it since, the source of
/// the Server API's notification history (which lists dropped notifications too, as Apple does).
public struct NotificationRecord: Hashable, Sendable {
    public let notification: WireNotification
    /// When the notification was first due to be sent.
    public let firstSendDate: Date
    /// Every attempt, oldest first, in both formats.
    public let attempts: [DeliveryAttempt]
    /// Whether fault injection dropped it.
    public let dropped: Bool

    public init(notification: WireNotification, firstSendDate: Date, attempts: [DeliveryAttempt], dropped: Bool) {
        self.notification = notification
        self.firstSendDate = firstSendDate
        self.attempts = attempts
        self.dropped = dropped
    }
}

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

/// What became of one delivery attempt.
public enum DeliveryOutcome: Hashable, Sendable {
    /// The receiver answered with this HTTP status; 200–206 ends the retries, anything else
    /// schedules the next attempt of Apple's schedule.
    case answered(status: Int)
    /// No HTTP answer (connection refused, timeout); retried like a non-2xx answer.
    case failed(reason: String)
    /// Fault injection dropped the notification; nothing was sent and nothing will be.
    case dropped

    /// Whether the receiver accepted the notification, which is what stops Apple retrying.
    public var isSuccess: Bool {
        if case .answered(let status) = self { return (200...206).contains(status) }
        return false
    }
}

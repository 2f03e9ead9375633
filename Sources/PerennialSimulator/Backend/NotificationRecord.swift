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

public import Foundation

/// The body of Get Notification History: a date window (at most 180 days back) and either a
/// notification type or a transaction id.
public struct NotificationHistoryRequest: Codable, Hashable, Sendable {
    @Lenient<EpochMilliseconds> public var startDate: Date?
    @Lenient<EpochMilliseconds> public var endDate: Date?
    public var notificationType: NotificationTypeV2?
    public var notificationSubtype: NotificationSubtypeV2?
    @Lenient<IdentifierText> public var transactionId: String?
    @Lenient<BooleanValue> public var onlyFailures: Bool?

    /// Creates a request.
    public init(
        startDate: Date? = nil,
        endDate: Date? = nil,
        notificationType: NotificationTypeV2? = nil,
        notificationSubtype: NotificationSubtypeV2? = nil,
        transactionId: String? = nil,
        onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}

public import Foundation

/// The verified payload of a V2 notification.
///
/// Exactly one of `data`, `summary`, `externalPurchaseToken` and `appData` is present, chosen by
/// `notificationType`; they stay separate optionals (as Apple sends them) so that a payload with a
/// new combination still decodes. `notificationUUID` is the idempotency key: Apple's retries reuse it.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    public var notificationType: NotificationTypeV2?
    public var subtype: NotificationSubtypeV2?
    public var notificationUUID: String?
    /// `"2.0"`.
    public var version: String?
    @Lenient<EpochMilliseconds> public var signedDate: Date?
    public var data: NotificationData?
    public var summary: NotificationSummary?
    public var externalPurchaseToken: ExternalPurchaseToken?
    public var appData: NotificationAppData?

    /// Creates a payload; the simulator signs these.
    public init(
        notificationType: NotificationTypeV2? = nil,
        subtype: NotificationSubtypeV2? = nil,
        notificationUUID: String? = nil,
        version: String? = nil,
        signedDate: Date? = nil,
        data: NotificationData? = nil,
        summary: NotificationSummary? = nil,
        externalPurchaseToken: ExternalPurchaseToken? = nil,
        appData: NotificationAppData? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.version = version
        self.signedDate = signedDate
        self.data = data
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
    }
}

public import Foundation

/// One POST the delivery state machine asks its driver to make now: which notification, in which
/// format, to which URL, as which attempt.
public struct DeliveryRequest: Hashable, Sendable {
    /// Identifies the queued delivery, to report its outcome back.
    public let id: Int
    /// What is sent.
    public let notification: WireNotification
    /// Which body is sent: `{"signedPayload"}` or the V1 JSON.
    public let version: NotificationVersion
    /// The App Store Connect URL configured for that format.
    public let url: URL
    /// 1 for the first attempt, counting up through retries.
    public let attempt: Int
    /// The instant the attempt is due; the driver records it as the attempt's time.
    public let due: Date
    /// True for a second copy injected by the duplicate fault; copies are never retried.
    public let isDuplicate: Bool

    /// The JSON body Apple POSTs: `{"signedPayload": …}` for V2, the V1 notification for V1
    /// (the queue only schedules V1 deliveries for notifications that have a V1 body).
    public func body() throws(SimulatorWireError) -> Data {
        let encoded: Data?
        do {
            encoded = try version == .v2 ? JSONEncoder().encode(notification.body) : notification.v1.map { try JSONEncoder().encode($0) }
        } catch {
            throw .signing("cannot encode the \(version.rawValue) body of \(notification.notificationUUID): \(error)")
        }
        guard let encoded else { throw .signing("notification \(notification.notificationUUID) has no V1 body") }
        return encoded
    }
}

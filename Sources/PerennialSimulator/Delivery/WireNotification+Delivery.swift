import PerennialAppStore

extension WireNotification {
    /// The idempotency key Apple repeats on every retry and duplicate.
    public var notificationUUID: String { payload.notificationUUID ?? "" }
    /// Apple's V2 type string, used in history for both formats.
    var typeName: String { intent.type.rawValue }
    var subtypeName: String? { intent.subtype?.rawValue }
}

public import PerennialStorage

/// What a verified notification (V1 or V2) yields.
public struct NotificationEvidence: Sendable {
    /// The evidence to apply; nil when the notification carries no transaction or renewal info
    /// (`TEST`, summaries, external purchase tokens), which is acknowledged without storing.
    public var evidence: IncomingEvidence?
    /// Apple's notification type, for logs and metrics.
    public var notificationType: String

    public init(evidence: IncomingEvidence?, notificationType: String) {
        self.evidence = evidence
        self.notificationType = notificationType
    }
}

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

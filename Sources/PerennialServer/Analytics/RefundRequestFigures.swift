import PerennialStorage

/// The refund requests Apple asked the app about in a range (`CONSUMPTION_REQUEST`), what was
/// answered and what Apple decided: whether answering them pays, in one place. Read from the
/// requests themselves (a few a day), not from counters: a request is no subscription's record.
public struct RefundRequestFigures: Sendable, Hashable {
    public var requested = 0
    /// Answered in time with Send Consumption Information.
    public var answered = 0
    /// Not answered: Apple refused the answer, the 12-hour window closed, or the app has no
    /// consumption policy.
    public var unanswered = 0
    /// Of the requests, those Apple refunded, declined, or has not decided yet.
    public var refunded = 0
    public var declined = 0
    public var undecided = 0

    public init() {}

    /// The figures of `requests`.
    init(_ requests: [RefundRequestRecord]) {
        for request in requests {
            requested += 1
            switch request.state {
            case .answered: answered += 1
            case .failed, .missed, .notConfigured: unanswered += 1
            case .pending: break
            }
            switch request.outcome {
            case .refunded?: refunded += 1
            case .declined?: declined += 1
            case nil: undecided += 1
            }
        }
    }

    /// Refunded over decided; nil before any decision.
    public var refundRate: Double? { refunded + declined == 0 ? nil : Double(refunded) / Double(refunded + declined) }
}

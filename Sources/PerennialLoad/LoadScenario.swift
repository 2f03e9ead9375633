/// The traffic `perennial load` sends, each with the speed target the project holds it to.
public enum LoadScenario: String, CaseIterable, Sendable {
    /// Signed V2 notifications, each about a new subscription: verify, apply, outbox.
    case notifications
    /// Signed DID_RENEW notifications for the warm-up's subscribers: verify, apply, the
    /// subscriber's view recomputed, a `renewal` event in the outbox (and delivered to the
    /// webhook receiver with `--webhook-port`).
    case renewals
    /// App receipts posted by devices; the server verifies them through the simulator's
    /// verifyReceipt, so this measures both.
    case receipts
    /// Subscriber reads of users created in the warm-up.
    case reads
    /// 80% reads, 15% notifications, 5% signed transactions, as a live app's traffic mixes them.
    case mixed
    /// Apple's Get Retention Message requests about the warm-up's subscriptions, as the App Store
    /// sends one when a customer opens a subscription's page: verify, the owner's records, the
    /// policy's choice, a timeline entry. Apple shows its default message instead of an answer
    /// that takes longer than ``deadline``.
    case retention

    /// What the route must reach against the trivial route; nil where the project sets none.
    public var target: LoadTarget? {
        switch self {
        case .notifications, .renewals: LoadTarget(minimumThroughputRatio: 0.40, maximumP99Ratio: 2.0)
        case .reads: LoadTarget(minimumThroughputRatio: 0.70, maximumP99Ratio: 1.5)
        case .receipts, .mixed, .retention: nil
        }
    }

    /// How long Apple waits for each answer before it goes without; nil where the caller is the
    /// app, which has no such limit.
    public var deadline: Duration? {
        self == .retention ? .milliseconds(700) : nil
    }

    /// The kind of the `index`-th request a worker sends; `mixed` cycles through 20 slots so
    /// every worker keeps the proportions exactly, whatever its request count.
    public func kind(ofRequest index: Int) -> LoadRequestKind {
        switch self {
        case .notifications: return .notification
        case .renewals: return .renewal
        case .receipts: return .receipt
        case .reads: return .read
        case .retention: return .retentionRequest
        case .mixed:
            let slot = index % 20
            if slot < 16 { return .read }
            return slot < 19 ? .notification : .transaction
        }
    }
}

/// One kind of request the load tool can send.
public enum LoadRequestKind: Hashable, Sendable {
    /// `POST /apple/notifications/v2/{app}` with a fresh signed notification.
    case notification
    /// `POST /v1/subscribers/{user}/receipts` with a warm-up user's receipt.
    case receipt
    /// `GET /v1/subscribers/{user}` for a warm-up user.
    case read
    /// `POST /v1/subscribers/{user}/transactions` with a fresh signed transaction for a new user.
    case transaction
    /// `POST /apple/notifications/v2/{app}` renewing a warm-up user's subscription.
    case renewal
    /// `POST /apple/retention/{app}` asking for the message to show about a warm-up user's subscription.
    case retentionRequest
}

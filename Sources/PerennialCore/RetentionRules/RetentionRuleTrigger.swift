/// The subscriber event a ``RetentionRule`` answers, and the state in which its choice still
/// holds. A closed set (Perennial defines it), its raw values the stable names of the admin API.
public enum RetentionRuleTrigger: String, Hashable, Sendable, Codable, CaseIterable {
    /// Auto-renew turned off (``EventKind/cancellation``): the customer is about to leave while
    /// still subscribed.
    case autoRenewOff
    /// A renewal charge failed (``EventKind/billingIssue``): grace period or billing retry.
    case billingIssue
    /// The grace period ended without a charge (``EventKind/gracePeriodExpired``): access stopped,
    /// Apple keeps retrying.
    case billingRetry
    /// The subscription expired (``EventKind/expiration``): a win-back moment.
    case expiration

    /// The event that triggers it.
    public var eventKind: EventKind {
        switch self {
        case .autoRenewOff: .cancellation
        case .billingIssue: .billingIssue
        case .billingRetry: .gracePeriodExpired
        case .expiration: .expiration
        }
    }

    /// Whether the subscription is still in the situation the trigger reacted to: a choice made for
    /// it is withdrawn as soon as this is false (auto-renew back on, billing recovered, renewed or
    /// resubscribed), whatever order the evidence saying so arrived in.
    public func holds(for subscription: SubscriptionState) -> Bool {
        switch self {
        case .autoRenewOff:
            subscription.autoRenewEnabled == false && subscription.status != .expired && subscription.status != .revoked
        case .billingIssue: subscription.status == .inGracePeriod || subscription.status == .inBillingRetry
        case .billingRetry: subscription.status == .inBillingRetry
        case .expiration: subscription.status == .expired
        }
    }
}

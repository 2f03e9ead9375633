public import Foundation
public import PerennialCore

/// When Perennial asks Apple about a subscription instead of waiting for news.
///
/// Apple does not always say when a period ends (V1 sends no renewal notifications, and any
/// notification can be lost), so each subscription gets a check scheduled shortly after the
/// moment something should have happened; the daily sweep is only a safety net.
///
/// In `PerennialStorage` because ``EvidenceApplier`` schedules the next check in the same
/// transaction as the evidence that changed the subscription.
public struct ReconciliationPolicy: Hashable, Sendable, Codable {
    /// How long after a period should have renewed (or a grace period ended) before asking.
    public var margin: TimeInterval
    /// How often a subscription in billing retry is checked while Apple keeps retrying.
    public var billingRetryInterval: TimeInterval
    /// How long after expiry a subscription is still included in sweeps, in case the expiry was a
    /// missed renewal.
    public var expiredLookback: TimeInterval

    /// Production defaults: one hour of margin, daily checks in billing retry, a week of lookback.
    public init(margin: TimeInterval = 3600, billingRetryInterval: TimeInterval = 86_400, expiredLookback: TimeInterval = 7 * 86_400) {
        self.margin = margin
        self.billingRetryInterval = billingRetryInterval
        self.expiredLookback = expiredLookback
    }

    /// When the subscription should next be checked, or nil when nothing more can change without
    /// the customer acting (refunded, or expired long enough ago).
    ///
    /// - Parameter now: the instant of the latest evidence; a due date is never before it.
    public func nextCheck(for subscription: SubscriptionState, now: Date) -> Date? {
        let due: Date
        switch subscription.status {
        case .active:
            due = (subscription.accessExpiresDate ?? subscription.expiresDate).addingTimeInterval(margin)
        case .inGracePeriod:
            due = (subscription.gracePeriodExpiresDate ?? subscription.expiresDate).addingTimeInterval(margin)
        case .inBillingRetry:
            due = now.addingTimeInterval(billingRetryInterval)
        case .expired:
            let sweepEnds = subscription.expiresDate.addingTimeInterval(expiredLookback)
            guard subscription.expirationReason == nil, now < sweepEnds else { return nil }
            due = max(subscription.expiresDate.addingTimeInterval(margin), now.addingTimeInterval(billingRetryInterval))
        case .revoked:
            return nil
        }
        return max(due, now)
    }

    /// Whether the daily sweep includes this subscription at `now`.
    public func isSwept(_ subscription: SubscriptionState, now: Date) -> Bool {
        guard let until = sweptUntil(subscription) else { return false }
        return subscription.status != .expired || now < until
    }

    /// Until when the daily sweep includes the subscription if no newer evidence arrives: while it
    /// is not expired, and for `expiredLookback` after its expiry; nil once refunded. Stored with
    /// the schedule so the sweep selects subscriptions without recomputing their state.
    public func sweptUntil(_ subscription: SubscriptionState) -> Date? {
        switch subscription.status {
        case .active, .inGracePeriod, .inBillingRetry, .expired:
            let end = max(subscription.expiresDate, subscription.gracePeriodExpiresDate ?? subscription.expiresDate)
            return end.addingTimeInterval(expiredLookback)
        case .revoked: return nil
        }
    }
}

import Foundation

/// Something time alone makes happen to a subscription.
enum DueEvent: Hashable, Sendable {
    /// The period ends: renew, fail to charge, or expire.
    case periodEnd
    /// The billing grace period ends without recovery; access stops, retries go on.
    case gracePeriodEnd
    /// Apple stops retrying the failed charge; the subscription expires.
    case billingRetryEnd
}

extension SubscriptionLifecycle {
    /// The next event time will cause, and when; nil for purchases that do not renew and for
    /// subscriptions that are over.
    var nextDueEvent: (date: Date, event: DueEvent)? {
        guard isAutoRenewable else { return nil }
        switch status {
        case .active:
            return latestTransaction.expiresDate.map { ($0, .periodEnd) }
        case .gracePeriod, .billingRetry:
            guard let failure = billingFailure else { return nil }
            if status == .gracePeriod, let grace = failure.gracePeriodExpiresDate, grace < failure.billingRetryEndDate {
                return (grace, .gracePeriodEnd)
            }
            return (failure.billingRetryEndDate, .billingRetryEnd)
        case .expired, .revoked:
            return nil
        }
    }
}

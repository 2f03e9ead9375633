public import Foundation

/// A renewal charge that failed and what Apple does about it: keep access until the grace period
/// ends (if any), keep retrying until the retry window ends.
public struct BillingFailure: Hashable, Sendable {
    /// When the failed renewal was due; a recovery within the grace period renews from here, so
    /// the customer loses no days.
    public let failedRenewalDate: Date
    /// End of the billing grace period, nil without one.
    public let gracePeriodExpiresDate: Date?
    /// When Apple gives up and the subscription expires.
    public let billingRetryEndDate: Date
}

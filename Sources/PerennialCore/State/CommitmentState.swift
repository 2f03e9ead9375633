public import Foundation

/// The commitment a subscription's current period belongs to, as it stands at the view's instant.
///
/// A monthly plan with a 12-month commitment renews every month, and the customer owes every month
/// of the commitment: turning auto-renew off stops it at ``expiresDate``, not at the end of the
/// month (https://developer.apple.com/documentation/storekit/supporting-monthly-subscriptions-with-a-12-month-commitment).
public struct CommitmentState: Hashable, Sendable, Codable {
    /// The billing period the current transaction pays, from 1.
    public var billingPeriodNumber: Int?
    /// How many billing periods the commitment has.
    public var totalBillingPeriods: Int?
    /// The end of the commitment.
    public var expiresDate: Date
    /// Whether a new commitment starts at ``expiresDate``: the customer's auto-renew switch, false
    /// once the subscription has ended.
    public var willRenew: Bool

    public init(billingPeriodNumber: Int?, totalBillingPeriods: Int?, expiresDate: Date, willRenew: Bool) {
        self.billingPeriodNumber = billingPeriodNumber
        self.totalBillingPeriods = totalBillingPeriods
        self.expiresDate = expiresDate
        self.willRenew = willRenew
    }
}

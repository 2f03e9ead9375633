public import Foundation

/// Where a transaction stands in a commitment: the billing period it pays, out of how many, and
/// when the commitment ends (Apple's `TransactionCommitmentInfo`,
/// https://developer.apple.com/documentation/appstoreserverapi/transactioncommitmentinfo).
///
/// The transaction's own `expiresDate` ends its month; the commitment's `expiresDate` is what the
/// customer agreed to pay up to. Turning auto-renew off stops the subscription only there.
public struct CommitmentPeriod: Hashable, Sendable, Codable {
    /// The number of the billing period this transaction pays, from 1 (`billingPeriodNumber`).
    public var billingPeriodNumber: Int?
    /// How many billing periods the commitment has (`totalBillingPeriods`, 12).
    public var totalBillingPeriods: Int?
    /// The end of the commitment (`commitmentExpiresDate`).
    public var expiresDate: Date
    /// The price of the whole commitment (`commitmentPrice`), in the transaction's currency.
    public var price: Money?

    public init(billingPeriodNumber: Int? = nil, totalBillingPeriods: Int? = nil, expiresDate: Date, price: Money? = nil) {
        self.billingPeriodNumber = billingPeriodNumber
        self.totalBillingPeriods = totalBillingPeriods
        self.expiresDate = expiresDate
        self.price = price
    }
}

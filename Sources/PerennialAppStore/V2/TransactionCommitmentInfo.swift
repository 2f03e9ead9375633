public import Foundation

/// The `commitmentInfo` of a transaction on a 12-month commitment plan billed monthly: which
/// billing period of the commitment this transaction pays.
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
    @Lenient<IntegerNumber<Int>> public var billingPeriodNumber: Int?
    @Lenient<EpochMilliseconds> public var commitmentExpiresDate: Date?
    /// Milli-units of the transaction's currency.
    @Lenient<IntegerNumber<Int64>> public var commitmentPrice: Int64?
    @Lenient<IntegerNumber<Int>> public var totalBillingPeriods: Int?

    /// Creates commitment info.
    public init(
        billingPeriodNumber: Int? = nil,
        commitmentExpiresDate: Date? = nil,
        commitmentPrice: Int64? = nil,
        totalBillingPeriods: Int? = nil
    ) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }
}

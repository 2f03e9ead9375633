public import Foundation

/// The `commitmentInfo` of renewal info on a commitment plan: how the commitment itself renews.
public struct RenewalCommitmentInfo: Codable, Hashable, Sendable {
    public var commitmentAutoRenewProductId: String?
    public var commitmentAutoRenewStatus: AppleAutoRenewStatus?
    public var commitmentRenewalBillingPlanType: BillingPlanType?
    @Lenient<EpochMilliseconds> public var commitmentRenewalDate: Date?
    /// Milli-units of the renewal currency.
    @Lenient<IntegerNumber<Int64>> public var commitmentRenewalPrice: Int64?

    /// Creates commitment renewal info.
    public init(
        commitmentAutoRenewProductId: String? = nil,
        commitmentAutoRenewStatus: AppleAutoRenewStatus? = nil,
        commitmentRenewalBillingPlanType: BillingPlanType? = nil,
        commitmentRenewalDate: Date? = nil,
        commitmentRenewalPrice: Int64? = nil
    ) {
        self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
        self.commitmentRenewalDate = commitmentRenewalDate
        self.commitmentRenewalPrice = commitmentRenewalPrice
    }
}

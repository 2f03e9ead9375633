import PerennialCore

extension TransactionCommitmentInfo {
    /// The transaction's place in its commitment. Apple states the commitment's price in the
    /// transaction's `currency`
    /// (https://developer.apple.com/documentation/appstoreserverapi/transactioncommitmentinfo);
    /// the commitment's end is what the rest hangs on, so without it the info is refused as
    /// ``NormalizationError/missingField(field:record:)``.
    func commitmentPeriod(currency: String?, record: String) throws(NormalizationError) -> CommitmentPeriod {
        CommitmentPeriod(
            billingPeriodNumber: billingPeriodNumber,
            totalBillingPeriods: totalBillingPeriods,
            expiresDate: try commitmentExpiresDate.required("commitmentInfo.commitmentExpiresDate", record: record),
            price: Money.from(milliUnits: commitmentPrice, currency: currency))
    }
}

extension RenewalCommitmentInfo {
    /// What the renewal info says about the commitment's own renewal
    /// (https://developer.apple.com/documentation/appstoreserverapi/renewalcommitmentinfo); a
    /// `commitmentAutoRenewStatus` other than 0 or 1 is reported, as `autoRenewStatus` is.
    func commitmentRenewal(currency: String?, record: String) throws(NormalizationError) -> CommitmentRenewal {
        CommitmentRenewal(
            willAutoRenew: try commitmentAutoRenewStatus.map { status throws(NormalizationError) in try status.willAutoRenew(record: record) },
            autoRenewProductID: commitmentAutoRenewProductId.nonEmpty,
            billingPlan: commitmentRenewalBillingPlanType?.coreValue,
            renewalDate: commitmentRenewalDate,
            renewalPrice: Money.from(milliUnits: commitmentRenewalPrice, currency: currency))
    }
}

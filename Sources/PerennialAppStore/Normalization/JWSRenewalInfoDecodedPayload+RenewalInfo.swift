public import PerennialCore

extension JWSRenewalInfoDecodedPayload {
    /// The signed renewal info as a Core record; `signedDate` is the version date.
    ///
    /// The original transaction id, product id, auto-renew status, signed date and environment are
    /// mandatory (``NormalizationError/missingField(field:record:)``); an auto-renew status other
    /// than 0 or 1 is ``NormalizationError/invalidValue(field:value:record:)``.
    public func renewalInfo(source: EvidenceSource) throws(NormalizationError) -> RenewalInfo {
        let record = "signed renewal info \(originalTransactionId ?? "without original transaction id")"
        let originalTransactionID = try originalTransactionId.nonEmpty.required("originalTransactionId", record: record)
        let productID = try productId.nonEmpty.required("productId", record: record)
        let autoRenewStatus = try autoRenewStatus.required("autoRenewStatus", record: record)
        let signedDate = try signedDate.required("signedDate", record: record)
        let environment = try environment.required("environment", record: record)

        return RenewalInfo(
            originalTransactionID: originalTransactionID,
            productID: productID,
            autoRenewProductID: autoRenewProductId.nonEmpty,
            willAutoRenew: try autoRenewStatus.willAutoRenew(record: record),
            expirationReason: expirationIntent?.coreValue,
            isInBillingRetry: isInBillingRetryPeriod ?? false,
            gracePeriodExpiresDate: gracePeriodExpiresDate,
            priceIncreaseStatus: priceIncreaseStatus?.coreValue,
            offer: Offer.signed(type: offerType, identifier: offerIdentifier, discountType: offerDiscountType, period: offerPeriod),
            renewalPrice: Money.from(milliUnits: renewalPrice, currency: currency),
            renewalDate: renewalDate,
            recentSubscriptionStartDate: recentSubscriptionStartDate,
            eligibleWinBackOfferIDs: eligibleWinBackOfferIds ?? [],
            appAccountToken: appAccountToken,
            billingPlan: renewalBillingPlanType?.coreValue,
            commitment: try commitmentInfo?.commitmentRenewal(currency: currency, record: record),
            environment: environment.coreValue,
            provenance: Provenance(source: source, versionDate: signedDate, isSigned: true)
        )
    }
}

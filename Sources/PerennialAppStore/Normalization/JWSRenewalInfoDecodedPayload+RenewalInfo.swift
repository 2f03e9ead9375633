public import PerennialCore

extension JWSRenewalInfoDecodedPayload {
    /// The signed renewal info as a Core record; `signedDate` is the version date.
    ///
    /// The original transaction id, product id, auto-renew status, signed date and environment are
    /// mandatory (``NormalizationError/missingField(field:record:)``); an auto-renew status other
    /// than 0 or 1 is ``NormalizationError/invalidValue(field:value:record:)``.
    public func renewalInfo(source: EvidenceSource) throws(NormalizationError) -> RenewalInfo {
        let record = "signed renewal info \(originalTransactionId ?? "without original transaction id")"
        func required<Value>(_ value: Value?, _ field: String) throws(NormalizationError) -> Value {
            guard let value else { throw .missingField(field: field, record: record) }
            return value
        }
        let originalTransactionID = try required(originalTransactionId.nonEmpty, "originalTransactionId")
        let productID = try required(productId.nonEmpty, "productId")
        let autoRenewStatus = try required(autoRenewStatus, "autoRenewStatus")
        let signedDate = try required(signedDate, "signedDate")
        let environment = try required(environment, "environment")

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
            environment: environment.coreValue,
            provenance: Provenance(source: source, versionDate: signedDate, isSigned: true)
        )
    }
}

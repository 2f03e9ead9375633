public import PerennialCore

extension JWSTransactionDecodedPayload {
    /// The signed transaction as a Core record.
    ///
    /// `source` says how the payload reached us (`.signedTransaction`, `.notificationV2`,
    /// `.serverAPI`); `signedDate` is the version date. The transaction id, original transaction
    /// id, product id, purchase date, signed date and environment are mandatory; each missing one
    /// is a ``NormalizationError/missingField(field:record:)``, and so is a `commitmentInfo`
    /// without its `commitmentExpiresDate`.
    public func transaction(source: EvidenceSource) throws(NormalizationError) -> Transaction {
        let record = "signed transaction \(transactionId ?? "without id")"
        let transactionID = try transactionId.nonEmpty.required("transactionId", record: record)
        let originalTransactionID = try originalTransactionId.nonEmpty.required("originalTransactionId", record: record)
        let productID = try productId.nonEmpty.required("productId", record: record)
        let purchaseDate = try purchaseDate.required("purchaseDate", record: record)
        let signedDate = try signedDate.required("signedDate", record: record)
        let environment = try environment.required("environment", record: record)

        return Transaction(
            transactionID: transactionID,
            originalTransactionID: originalTransactionID,
            webOrderLineItemID: webOrderLineItemId.nonEmpty,
            bundleID: bundleId.nonEmpty,
            productID: productID,
            productType: type?.coreValue,
            subscriptionGroupID: subscriptionGroupIdentifier.nonEmpty,
            purchaseDate: purchaseDate,
            originalPurchaseDate: originalPurchaseDate,
            expiresDate: expiresDate,
            quantity: quantity ?? 1,
            ownership: inAppOwnershipType?.coreValue ?? .purchased,
            reason: transactionReason?.coreValue,
            offer: Offer.signed(type: offerType, identifier: offerIdentifier, discountType: offerDiscountType, period: offerPeriod),
            isUpgraded: isUpgraded ?? false,
            revocation: revocationDate.map {
                Revocation(date: $0, reason: revocationReason?.coreValue, type: revocationType?.coreValue, percentage: revocationPercentage)
            },
            price: Money.from(milliUnits: price, currency: currency),
            storefront: storefront.nonEmpty,
            appAccountToken: appAccountToken,
            billingPlan: billingPlanType?.coreValue,
            commitment: try commitmentInfo?.commitmentPeriod(currency: currency, record: record),
            environment: environment.coreValue,
            provenance: Provenance(source: source, versionDate: signedDate, isSigned: true)
        )
    }
}

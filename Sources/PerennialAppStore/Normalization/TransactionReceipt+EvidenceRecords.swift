public import PerennialCore

extension TransactionReceipt {
    /// The receipt's single transaction as a Core record.
    ///
    /// An iOS 6 receipt is issued at the purchase and never updated, so its purchase date is its
    /// version date: any later answer from Apple about the same transaction wins over it. A missing
    /// transaction id, product id or purchase date is ``ReceiptError/missingField(_:)``; a missing
    /// original transaction id falls back to the transaction id, as for a first purchase.
    public func evidenceRecords() throws(ReceiptError) -> EvidenceRecords {
        let info = purchaseInfo
        guard let transactionID = info.transactionID else { throw .missingField("transaction-id") }
        guard let productID = info.productID else { throw .missingField("product-id") }
        guard let purchaseDate = info.purchaseDate else { throw .missingField("purchase-date-ms") }
        let transaction = Transaction(
            transactionID: transactionID,
            originalTransactionID: info.originalTransactionID ?? transactionID,
            webOrderLineItemID: info.webOrderLineItemID,
            bundleID: info.bundleID,
            productID: productID,
            purchaseDate: purchaseDate,
            originalPurchaseDate: info.originalPurchaseDate,
            expiresDate: info.expiresDate,
            quantity: info.quantity ?? 1,
            offer: Offer.legacy(
                isTrialPeriod: info.isTrialPeriod,
                isInIntroOfferPeriod: info.isInIntroOfferPeriod,
                offerCodeRefName: nil,
                promotionalOfferID: nil
            ),
            environment: appStoreEnvironment,
            provenance: Provenance(source: .transactionReceipt, versionDate: purchaseDate, isSigned: false)
        )
        return EvidenceRecords(transactions: [transaction])
    }
}

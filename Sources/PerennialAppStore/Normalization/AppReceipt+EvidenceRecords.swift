public import PerennialCore

extension AppReceipt {
    /// The receipt's in-app records as Core transactions, the same records any other source yields.
    ///
    /// The version date is the receipt's creation date (what Apple's answer time is to
    /// verifyReceipt data). A record without transaction id, product id or purchase date cannot
    /// become a transaction and fails the whole receipt with ``ReceiptError/missingField(_:)``.
    /// Xcode receipts omit the original transaction id (1705); the transaction's own id stands in,
    /// which is what Apple reports for a first purchase. Receipts carry no renewal info.
    public func evidenceRecords() throws(ReceiptError) -> EvidenceRecords {
        guard let creationDate else { throw .missingField("receipt creation date (attribute 12)") }
        guard let receiptType else { throw .missingField("receipt type (attribute 0)") }
        let provenance = Provenance(source: .appReceipt, versionDate: creationDate, isSigned: false)
        var transactions: [Transaction] = []
        for (index, purchase) in inAppPurchases.enumerated() {
            guard let transactionID = purchase.transactionID else {
                throw .missingField("transaction id (1703) of in-app record \(index)")
            }
            guard let productID = purchase.productID else {
                throw .missingField("product id (1702) of in-app record \(index)")
            }
            guard let purchaseDate = purchase.purchaseDate else {
                throw .missingField("purchase date (1704) of in-app record \(index)")
            }
            transactions.append(Transaction(
                transactionID: transactionID,
                originalTransactionID: purchase.originalTransactionID ?? transactionID,
                webOrderLineItemID: purchase.webOrderLineItemID.map(String.init),
                bundleID: bundleID,
                productID: productID,
                purchaseDate: purchaseDate,
                originalPurchaseDate: purchase.originalPurchaseDate,
                expiresDate: purchase.expiresDate,
                quantity: purchase.quantity ?? 1,
                offer: Offer.legacy(
                    isTrialPeriod: purchase.isTrialPeriod,
                    isInIntroOfferPeriod: purchase.isInIntroOfferPeriod,
                    offerCodeRefName: nil,
                    promotionalOfferID: purchase.promotionalOfferID
                ),
                revocation: purchase.cancellationDate.map { Revocation(date: $0, reason: nil) },
                environment: receiptType.environment,
                provenance: provenance
            ))
        }
        return EvidenceRecords(transactions: transactions)
    }
}

extension VerifiedAppReceipt {
    /// The verified receipt's transactions; see ``AppReceipt/evidenceRecords()``.
    public func evidenceRecords() throws(ReceiptError) -> EvidenceRecords {
        try receipt.evidenceRecords()
    }
}

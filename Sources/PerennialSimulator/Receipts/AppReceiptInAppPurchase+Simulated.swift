import PerennialAppStore

extension AppReceiptInAppPurchase {
    /// The attribute-17 record a device receipt carries for `transaction`.
    ///
    /// Read off the transaction's `latest_receipt_info` row, so that the signed receipt and the
    /// verifyReceipt answer can never disagree about a date, an id or an offer flag.
    init(simulated transaction: SimulatedTransaction) {
        let row = LegacyPayloadEncoder.receiptRow(transaction)
        self.init(
            quantity: row.quantity,
            productID: row.product_id,
            transactionID: row.transaction_id,
            purchaseDate: row.purchase_date_ms,
            originalTransactionID: row.original_transaction_id,
            originalPurchaseDate: row.original_purchase_date_ms,
            expiresDate: row.expires_date_ms,
            webOrderLineItemID: row.web_order_line_item_id.flatMap { Int64($0) },
            cancellationDate: row.cancellation_date_ms,
            isTrialPeriod: row.is_trial_period,
            isInIntroOfferPeriod: row.is_in_intro_offer_period,
            promotionalOfferID: row.promotional_offer_id
        )
    }
}

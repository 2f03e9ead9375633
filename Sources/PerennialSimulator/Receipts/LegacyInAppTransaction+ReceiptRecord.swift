import PerennialAppStore

extension LegacyInAppTransaction {
    /// A `receipt.in_app` row: what the posted receipt's own record says, in verifyReceipt's
    /// spelling. Built from the receipt rather than from the store, because Apple echoes the
    /// receipt that was sent there; the store's current view goes to `latest_receipt_info`.
    init(receiptRecord record: AppReceiptInAppPurchase) {
        let purchase = record.purchaseDate.map(LegacyDateText.init)
        let originalPurchase = record.originalPurchaseDate.map(LegacyDateText.init)
        let expires = record.expiresDate.map(LegacyDateText.init)
        let cancellation = record.cancellationDate.map(LegacyDateText.init)
        self.init(
            cancellation_date: cancellation?.gmt,
            cancellation_date_ms: cancellation?.milliseconds,
            cancellation_date_pst: cancellation?.pacific,
            expires_date: expires?.gmt,
            expires_date_ms: expires?.milliseconds,
            expires_date_pst: expires?.pacific,
            is_in_intro_offer_period: record.isInIntroOfferPeriod,
            is_trial_period: record.isTrialPeriod,
            original_purchase_date: originalPurchase?.gmt,
            original_purchase_date_ms: originalPurchase?.milliseconds,
            original_purchase_date_pst: originalPurchase?.pacific,
            original_transaction_id: record.originalTransactionID,
            product_id: record.productID,
            promotional_offer_id: record.promotionalOfferID,
            purchase_date: purchase?.gmt,
            purchase_date_ms: purchase?.milliseconds,
            purchase_date_pst: purchase?.pacific,
            quantity: record.quantity,
            transaction_id: record.transactionID,
            web_order_line_item_id: record.webOrderLineItemID.map(String.init)
        )
    }
}

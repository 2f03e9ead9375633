import Foundation
import PerennialAppStore

extension LegacyReceipt {
    /// The `receipt` object of a verifyReceipt answer for `receipt`, answered at `requestDate`.
    ///
    /// The simulator models no downloads or app versions, so `download_id` and
    /// `version_external_identifier` are 0, as in Apple's sandbox.
    init(decoded receipt: AppReceipt, requestDate: Date) {
        let creation = receipt.creationDate.map(LegacyDateText.init)
        let request = LegacyDateText(requestDate)
        let originalPurchase = receipt.originalPurchaseDate.map(LegacyDateText.init)
        self.init(
            receipt_type: receipt.receiptType?.rawValue,
            adam_id: receipt.appAppleID,
            app_item_id: receipt.appAppleID,
            bundle_id: receipt.bundleID,
            application_version: receipt.appVersion,
            download_id: 0,
            version_external_identifier: 0,
            receipt_creation_date: creation?.gmt,
            receipt_creation_date_ms: creation?.milliseconds,
            receipt_creation_date_pst: creation?.pacific,
            request_date: request.gmt,
            request_date_ms: request.milliseconds,
            request_date_pst: request.pacific,
            original_purchase_date: originalPurchase?.gmt,
            original_purchase_date_ms: originalPurchase?.milliseconds,
            original_purchase_date_pst: originalPurchase?.pacific,
            original_application_version: receipt.originalAppVersion,
            in_app: receipt.inAppPurchases.map(LegacyInAppTransaction.init(receiptRecord:))
        )
    }
}

import Foundation
import PerennialAppStore
import PerennialCore

/// iOS 6 transaction receipts (`SKPaymentTransaction.transactionReceipt`) of the simulator's
/// transactions, and the fields verifyReceipt answers about them: one `purchase-info` dictionary
/// per transaction, with Apple's hyphenated keys and text values, so the receipt, its
/// `receipt` object and its `latest_receipt_info` say the same.
public enum TransactionReceiptAuthoring {
    /// The `purchase-info` of `transaction`: dates as GMT and Pacific text and milliseconds; a
    /// subscription's `expires-date` in milliseconds beside its `expires-date-formatted` texts,
    /// as iOS 6 wrote them.
    static func purchaseInfo(_ transaction: SimulatedTransaction, configuration: WireConfiguration) -> [String: String] {
        let purchase = LegacyDateText(transaction.purchaseDate)
        let originalPurchase = LegacyDateText(transaction.originalPurchaseDate)
        let production = transaction.environment == .production
        var info: [String: String] = [
            "transaction-id": transaction.transactionID,
            "original-transaction-id": transaction.originalTransactionID,
            "product-id": transaction.productID,
            "quantity": String(transaction.quantity),
            "purchase-date": purchase.gmt,
            "purchase-date-ms": Self.milliseconds(purchase.milliseconds),
            "purchase-date-pst": purchase.pacific,
            "original-purchase-date": originalPurchase.gmt,
            "original-purchase-date-ms": Self.milliseconds(originalPurchase.milliseconds),
            "original-purchase-date-pst": originalPurchase.pacific,
            "bid": transaction.bundleID,
            "bvrs": configuration.bundleVersion ?? WireConfiguration.defaultBundleVersion,
            // 0 in the sandbox, as Apple states.
            "item-id": production ? String(configuration.appAppleID ?? 0) : "0",
            "app-item-id": production ? String(configuration.appAppleID ?? 0) : "0",
            "version-external-identifier": "0",
            "unique-identifier": transaction.appTransactionID,
        ]
        if let expires = transaction.expiresDate.map(LegacyDateText.init) {
            let offer = transaction.offer
            let isIntroductory = offer?.type == .introductory
            info["expires-date"] = Self.milliseconds(expires.milliseconds)
            info["expires-date-formatted"] = expires.gmt
            info["expires-date-formatted-pst"] = expires.pacific
            info["web-order-line-item-id"] = transaction.webOrderLineItemID
            info["is-trial-period"] = String(isIntroductory && offer?.paymentMode == .freeTrial)
            info["is-in-intro-offer-period"] = String(isIntroductory && offer?.paymentMode != .freeTrial)
        }
        return info
    }

    /// The receipt of `transaction`, base64 as the app posts it.
    ///
    /// - Throws: ``SimulatorWireError/noReceiptAuthority`` when `pki` cannot sign receipts.
    public static func receipt(
        of transaction: SimulatedTransaction, pki: SimulatorPKI, configuration: WireConfiguration
    ) throws(SimulatorWireError) -> String {
        guard let authority = pki.receipts else { throw .noReceiptAuthority }
        do {
            return try authority.transactionReceipt(
                purchaseInfo: purchaseInfo(transaction, configuration: configuration),
                environment: transaction.environment == .production ? nil : "Sandbox")
        } catch {
            throw .signing("\(error)")
        }
    }

    /// A `purchase-info` as verifyReceipt's underscore keys, read into `T` (the answer's
    /// `receipt`, or its `latest_receipt_info` object).
    static func answerObject<T: Decodable>(_ info: [String: String], as type: T.Type) throws(SimulatorWireError) -> T {
        let underscored = Dictionary(uniqueKeysWithValues: info.map { ($0.replacingOccurrences(of: "-", with: "_"), $1) })
        do {
            return try JSONDecoder().decode(T.self, from: JSONEncoder().encode(underscored))
        } catch {
            throw .signing("iOS 6 answer: \(error)")
        }
    }

    private static func milliseconds(_ date: Date) -> String { String(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
}

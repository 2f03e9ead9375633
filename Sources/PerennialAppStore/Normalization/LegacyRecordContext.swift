import Foundation
import PerennialCore

/// What every record of one legacy payload shares: its environment, provenance and bundle id,
/// and the rules that turn its rows into Core records.
struct LegacyRecordContext {
    let environment: AppStoreEnvironment
    let provenance: Provenance
    /// The payload's bundle id (`receipt.bundle_id`, V1 `bid`); iOS 6 rows carry their own `bid`.
    let bundleID: String?

    /// A transaction row as a Core transaction. The product type stays nil: legacy rows do not
    /// state it, and an expiry date does not prove an auto-renewable (the engine uses the catalog).
    func transaction(_ row: LegacyInAppTransaction, record: String) throws(NormalizationError) -> Transaction {
        let transactionID = try row.transaction_id.nonEmpty.required("transaction_id", record: record)
        let originalTransactionID = try row.original_transaction_id.nonEmpty.required("original_transaction_id", record: record)
        let productID = try row.product_id.nonEmpty.required("product_id", record: record)
        let purchaseDate = try row.purchase_date_ms.required("purchase_date_ms", record: record)
        return Transaction(
            transactionID: transactionID,
            originalTransactionID: originalTransactionID,
            webOrderLineItemID: row.web_order_line_item_id.nonEmpty,
            bundleID: row.bid.nonEmpty ?? bundleID.nonEmpty,
            productID: productID,
            productType: nil,
            subscriptionGroupID: row.subscription_group_identifier.nonEmpty,
            purchaseDate: purchaseDate,
            originalPurchaseDate: row.original_purchase_date_ms,
            expiresDate: row.expires_date_ms ?? Self.milliseconds(row.expires_date),
            quantity: row.quantity ?? 1,
            ownership: row.in_app_ownership_type.map { $0.rawValue.isEmpty ? .purchased : $0.coreValue } ?? .purchased,
            reason: nil,
            offer: Offer.legacy(
                isTrialPeriod: row.is_trial_period,
                isInIntroOfferPeriod: row.is_in_intro_offer_period,
                offerCodeRefName: row.offer_code_ref_name,
                promotionalOfferID: row.promotional_offer_id
            ),
            isUpgraded: row.is_upgraded ?? false,
            revocation: row.cancellation_date_ms.map { Revocation(date: $0, reason: row.cancellation_reason?.coreValue) },
            appAccountToken: try Self.uuid(row.app_account_token, field: "app_account_token", record: record),
            environment: environment,
            provenance: provenance
        )
    }

    /// A `pending_renewal_info` element as Core renewal info. `price_increase_status` wins over
    /// the older `price_consent_status` when both are present.
    func renewalInfo(_ info: LegacyPendingRenewalInfo, record: String) throws(NormalizationError) -> RenewalInfo {
        let originalTransactionID = try info.original_transaction_id.nonEmpty.required("original_transaction_id", record: record)
        let productID = try info.product_id.nonEmpty.required("product_id", record: record)
        let autoRenewStatus = try info.auto_renew_status.required("auto_renew_status", record: record)
        return RenewalInfo(
            originalTransactionID: originalTransactionID,
            productID: productID,
            autoRenewProductID: info.auto_renew_product_id.nonEmpty,
            willAutoRenew: try autoRenewStatus.willAutoRenew(record: record),
            expirationReason: info.expiration_intent?.coreValue,
            isInBillingRetry: info.is_in_billing_retry_period ?? false,
            gracePeriodExpiresDate: info.grace_period_expires_date_ms,
            priceIncreaseStatus: (info.price_increase_status ?? info.price_consent_status)?.coreValue,
            offer: Offer.legacy(
                isTrialPeriod: nil,
                isInIntroOfferPeriod: nil,
                offerCodeRefName: info.offer_code_ref_name,
                promotionalOfferID: info.promotional_offer_id
            ),
            environment: environment,
            provenance: provenance
        )
    }

    /// Transactions of several legacy rows, each transaction once (the first row wins, so callers
    /// list the freshest source first), in ascending purchase order — Apple's row order differs
    /// between endpoints and eras.
    func transactions(_ rows: [(row: LegacyInAppTransaction, record: String)]) throws(NormalizationError) -> [Transaction] {
        var seen: Set<String> = []
        var transactions: [Transaction] = []
        for (row, record) in rows {
            let transaction = try transaction(row, record: record)
            if seen.insert(transaction.transactionID).inserted {
                transactions.append(transaction)
            }
        }
        return transactions.sorted {
            ($0.purchaseDate, $0.transactionID) < ($1.purchaseDate, $1.transactionID)
        }
    }

    /// iOS 6-style objects put milliseconds in `expires_date`; app-receipt rows put a date string
    /// there (and milliseconds in `expires_date_ms`), which this ignores.
    private static func milliseconds(_ text: String?) -> Date? {
        guard let text = text.nonEmpty, text.allSatisfy(\.isASCIIDigit), let value = Double(text) else { return nil }
        return Date(timeIntervalSince1970: value / 1000)
    }

    private static func uuid(_ text: String?, field: String, record: String) throws(NormalizationError) -> UUID? {
        guard let text = text.nonEmpty else { return nil }
        guard let uuid = UUID(uuidString: text) else {
            throw .invalidValue(field: field, value: text, record: record)
        }
        return uuid
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

public import Foundation
public import PerennialCore

extension VerifyReceiptResponse {
    /// The answer's transactions and renewal infos as Core records.
    ///
    /// Transactions come from `latest_receipt_info` (array, or the iOS 6 object),
    /// `latest_expired_receipt_info`, `receipt.in_app` and an iOS 6 `receipt` itself — each
    /// transaction once, the freshest source first — and renewal infos from `pending_renewal_info` plus, for iOS 6 answers, the
    /// top-level `auto_renew_status` family. The version date is `receipt.request_date_ms`, or
    /// `answeredAt` (when the answer arrived) if Apple left it out; records are unsigned.
    ///
    /// - Parameters:
    ///   - answeredAt: when the answer was received, from the caller's clock.
    ///   - environment: the environment of the endpoint that answered, used only when the answer
    ///     does not name its own.
    /// - Throws: ``NormalizationError/statusWithoutReceipt(_:)`` unless the status is 0 or 21006;
    ///   ``NormalizationError/missingField(field:record:)`` for a row without a mandatory field or
    ///   an answer without any environment.
    public func evidenceRecords(
        answeredAt: Date, environment endpointEnvironment: AppStoreEnvironment? = nil
    ) throws(NormalizationError) -> EvidenceRecords {
        guard status.carriesReceipt else { throw .statusWithoutReceipt(status) }
        guard let resolvedEnvironment = environment?.coreValue ?? endpointEnvironment else {
            throw .missingField(field: "environment", record: "verifyReceipt response")
        }
        let context = LegacyRecordContext(
            environment: resolvedEnvironment,
            provenance: Provenance(source: .verifyReceipt, versionDate: receipt?.request_date_ms ?? answeredAt, isSigned: false),
            bundleID: receipt?.bundle_id.nonEmpty ?? receipt?.bid
        )

        var rows: [(row: LegacyInAppTransaction, record: String)] = []
        switch latest_receipt_info {
        case .many(let elements):
            rows += elements.enumerated().map { ($1, "latest_receipt_info[\($0)]") }
        case .one(let element):
            rows.append((element, "latest_receipt_info"))
        case nil:
            break
        }
        if let expired = latest_expired_receipt_info {
            rows.append((expired, "latest_expired_receipt_info"))
        }
        rows += (receipt?.in_app ?? []).enumerated().map { ($1, "receipt.in_app[\($0)]") }
        if let proved = iOS6ReceiptTransaction { rows.append((proved, "receipt")) }

        var renewalInfos: [RenewalInfo] = []
        for (index, info) in (pending_renewal_info ?? []).enumerated() {
            renewalInfos.append(try context.renewalInfo(info, record: "pending_renewal_info[\(index)]"))
        }
        if let info = iOS6RenewalInfo {
            renewalInfos.append(try context.renewalInfo(info, record: "iOS 6 renewal fields"))
        }
        return EvidenceRecords(transactions: try context.transactions(rows), renewalInfos: renewalInfos)
    }

    /// An iOS 6 answer's `receipt` is itself the transaction the receipt proves (it has no
    /// `in_app`): for a purchase that is not an auto-renewable subscription the only place Apple
    /// puts it, so an iOS 6 receipt of a lifetime unlock was accepted and recorded nothing.
    private var iOS6ReceiptTransaction: LegacyInAppTransaction? {
        guard let receipt, receipt.in_app == nil, receipt.transaction_id != nil else { return nil }
        return LegacyInAppTransaction(
            expires_date: receipt.expires_date, expires_date_formatted: receipt.expires_date_formatted,
            expires_date_formatted_pst: receipt.expires_date_formatted_pst, is_in_intro_offer_period: receipt.is_in_intro_offer_period,
            is_trial_period: receipt.is_trial_period, original_purchase_date: receipt.original_purchase_date,
            original_purchase_date_ms: receipt.original_purchase_date_ms, original_purchase_date_pst: receipt.original_purchase_date_pst,
            original_transaction_id: receipt.original_transaction_id, product_id: receipt.product_id, purchase_date: receipt.purchase_date,
            purchase_date_ms: receipt.purchase_date_ms, purchase_date_pst: receipt.purchase_date_pst, quantity: receipt.quantity,
            transaction_id: receipt.transaction_id, web_order_line_item_id: receipt.web_order_line_item_id, item_id: receipt.item_id,
            bid: receipt.bid, bvrs: receipt.bvrs, unique_identifier: receipt.unique_identifier,
            unique_vendor_identifier: receipt.unique_vendor_identifier)
    }

    /// iOS 6 answers state renewal facts at the top level, about the subscription of their single
    /// `latest_receipt_info` (or `latest_expired_receipt_info`) object.
    private var iOS6RenewalInfo: LegacyPendingRenewalInfo? {
        guard let auto_renew_status else { return nil }
        let subscription: LegacyInAppTransaction? =
            if case .one(let latest) = latest_receipt_info { latest } else { latest_expired_receipt_info }
        guard let subscription else { return nil }
        return LegacyPendingRenewalInfo(
            auto_renew_product_id: auto_renew_product_id,
            auto_renew_status: auto_renew_status,
            expiration_intent: expiration_intent,
            is_in_billing_retry_period: is_in_billing_retry_period,
            original_transaction_id: subscription.original_transaction_id,
            product_id: subscription.product_id
        )
    }
}

public import Foundation
public import PerennialCore

extension VerifyReceiptResponse {
    /// The answer's transactions and renewal infos as Core records.
    ///
    /// Transactions come from `latest_receipt_info` (array, or the iOS 6 object),
    /// `latest_expired_receipt_info` and `receipt.in_app` — each transaction once, the freshest
    /// source first — and renewal infos from `pending_renewal_info` plus, for iOS 6 answers, the
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

        var renewalInfos: [RenewalInfo] = []
        for (index, info) in (pending_renewal_info ?? []).enumerated() {
            renewalInfos.append(try context.renewalInfo(info, record: "pending_renewal_info[\(index)]"))
        }
        if let info = iOS6RenewalInfo {
            renewalInfos.append(try context.renewalInfo(info, record: "iOS 6 renewal fields"))
        }
        return EvidenceRecords(transactions: try context.transactions(rows), renewalInfos: renewalInfos)
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

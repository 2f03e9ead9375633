public import Foundation
public import PerennialCore

extension NotificationV1 {
    /// The notification's transactions and renewal infos as Core records.
    ///
    /// Records come from `unified_receipt`; for a pre-2021 body, also from the top-level
    /// `latest_receipt_info` / `latest_expired_receipt_info` objects and the top-level renewal
    /// fields (`auto_renew_status` `"true"`/`"false"`, `auto_renew_product_id`,
    /// `expiration_intent`), and a top-level `cancellation_date_ms` revokes the cancelled
    /// top-level object. V1 bodies carry no answer time, so the caller dates the records
    /// (`versionDate`: when Apple took the snapshot, as well as it can tell); records are unsigned.
    ///
    /// - Throws: ``NormalizationError/missingField(field:record:)`` for a row without a mandatory
    ///   field or a body without any environment.
    public func evidenceRecords(versionDate: Date) throws(NormalizationError) -> EvidenceRecords {
        guard let resolvedEnvironment = (unified_receipt?.environment ?? environment)?.coreValue else {
            throw .missingField(field: "environment", record: "V1 notification")
        }
        let context = LegacyRecordContext(
            environment: resolvedEnvironment,
            provenance: Provenance(source: .notificationV1, versionDate: versionDate, isSigned: false),
            bundleID: bid
        )

        var rows: [(row: LegacyInAppTransaction, record: String)] =
            (unified_receipt?.latest_receipt_info ?? []).enumerated().map { ($1, "unified_receipt.latest_receipt_info[\($0)]") }
        if let latest = topLevelObject(latest_receipt_info) {
            rows.append((latest, "latest_receipt_info"))
        }
        if let expired = topLevelObject(latest_expired_receipt_info) {
            rows.append((expired, "latest_expired_receipt_info"))
        }

        var renewalInfos: [RenewalInfo] = []
        for (index, info) in (unified_receipt?.pending_renewal_info ?? []).enumerated() {
            renewalInfos.append(try context.renewalInfo(info, record: "unified_receipt.pending_renewal_info[\(index)]"))
        }
        if let info = topLevelRenewalInfo,
            !renewalInfos.contains(where: { $0.originalTransactionID == info.original_transaction_id })
        {
            renewalInfos.append(try context.renewalInfo(info, record: "top-level renewal fields"))
        }
        return EvidenceRecords(transactions: try context.transactions(rows), renewalInfos: renewalInfos)
    }

    /// A pre-2021 top-level object, carrying the top-level cancellation when it is the cancelled
    /// one: the object whose `web_order_line_item_id` matches the top-level one, or, when the body
    /// names none, the first object present.
    private func topLevelObject(_ object: LegacyInAppTransaction?) -> LegacyInAppTransaction? {
        guard var object else { return nil }
        let isCancelledObject =
            if let period = web_order_line_item_id.nonEmpty { object.web_order_line_item_id == period }
            else { object == latest_receipt_info ?? latest_expired_receipt_info }
        if object.cancellation_date_ms == nil, isCancelledObject, let cancellation_date_ms {
            object.cancellation_date_ms = cancellation_date_ms
        }
        return object
    }

    /// Pre-2021 bodies state renewal facts at the top level, about the subscription of their
    /// `latest_receipt_info` (or `latest_expired_receipt_info`) object.
    private var topLevelRenewalInfo: LegacyPendingRenewalInfo? {
        guard let auto_renew_status, let subscription = latest_receipt_info ?? latest_expired_receipt_info else {
            return nil
        }
        return LegacyPendingRenewalInfo(
            auto_renew_product_id: auto_renew_product_id,
            auto_renew_status: auto_renew_status ? .on : .off,
            expiration_intent: expiration_intent,
            original_transaction_id: subscription.original_transaction_id.nonEmpty ?? original_transaction_id,
            product_id: subscription.product_id
        )
    }
}

import Foundation
import Logging
import PerennialAppStore
import PerennialCore
import PerennialStorage

extension EvidencePipeline {
    /// Follows the story of a refund request through Apple's notifications: a `CONSUMPTION_REQUEST`
    /// is kept for the consumption job (``ConsumptionService``) — or, without a policy, recorded
    /// unanswered — and a later `REFUND` or `REFUND_DECLINED` of the same transaction is written on
    /// the requests about it, each change with its timeline entry.
    ///
    /// Only the V2 request is kept: it alone carries Apple's id, signing date and reason, and the V1
    /// copy of the same request must not be answered a second time. Either version settles it.
    func followRefundRequests(_ verified: AppEvidenceVerifier.Verified, now: Date) async throws(IngestError) {
        guard let type = verified.notificationType, let transaction = verified.records.transactions.first else { return }
        do throws(StorageError) {
            switch type {
            case NotificationTypeV2.consumptionRequest.rawValue:
                guard let notificationUUID = verified.appleID, verified.source == .notificationV2 else { return }
                try await record(verified, id: notificationUUID, about: transaction, now: now)
            case NotificationTypeV2.refund.rawValue:
                try await settle(transaction.transactionID, as: .refunded, now: now)
            case NotificationTypeV2.refundDeclined.rawValue:
                try await settle(transaction.transactionID, as: .declined, now: now)
            default:
                return
            }
        } catch {
            throw .storage(error)
        }
    }

    private func record(_ verified: AppEvidenceVerifier.Verified, id: String, about transaction: Transaction, now: Date) async throws(StorageError) {
        let owner = try await storage.purchase(ofTransaction: transaction.transactionID).flatMap { $0.appBundleID == app.bundleID ? $0.owner : nil }
        let request = RefundRequestRecord(
            id: id, appBundleID: app.bundleID,
            environment: verified.environment, transactionID: transaction.transactionID, originalTransactionID: transaction.originalTransactionID,
            productID: transaction.productID, purchaseDate: transaction.purchaseDate, expiresDate: transaction.expiresDate, appUserID: owner,
            reason: verified.consumptionRequestReason, requestedAt: verified.signedDate ?? now, state: app.consumption == nil ? .notConfigured : .pending)
        guard try await storage.addConsumptionRequest(request, audit: request.audit(.consumptionRequested, at: now)) else { return }
        metrics.recordConsumptionRequest(state: "requested")
        if app.consumption == nil {
            metrics.recordConsumptionRequest(state: "notConfigured")
            logger.warning(
                "refund consumption request recorded unanswered: the app has no consumption policy (docs/operations.md)",
                metadata: ["app": "\(app.id)", "transactionId": "\(transaction.transactionID)", "deadline": "\(request.deadline)"])
        }
    }

    private func settle(_ transactionID: String, as outcome: RefundRequestRecord.Outcome, now: Date) async throws(StorageError) {
        for var request in try await storage.consumptionRequests(ofTransaction: transactionID, appBundleID: app.bundleID) where request.outcome == nil {
            request.outcome = outcome
            request.outcomeAt = now
            _ = try await storage.updateConsumptionRequest(request, heldBy: nil, audit: request.audit(.refundDecided, at: now))
        }
    }
}

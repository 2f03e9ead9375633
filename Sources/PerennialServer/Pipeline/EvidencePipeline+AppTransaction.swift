public import Foundation
import Logging
import PerennialAppStore
public import PerennialCore
public import PerennialStorage

extension EvidencePipeline {
    /// Verifies a StoreKit 2 app transaction with every rule of the app and keeps the original app
    /// purchase it proves for `user` (the earliest, when the user already has one); returns what
    /// is kept. An app transaction buys no subscription, so it changes no record, view or event.
    public func recordAppTransaction(
        _ signed: String, presentedBy user: AppUserID, now: Date, requestedBy action: AdminAction? = nil
    ) async throws(IngestError) -> OriginalAppPurchase {
        let purchase: OriginalAppPurchase
        do throws(EvidenceError) {
            purchase = try await app.verifier.appTransaction(signed)
        } catch {
            throw refusal(error, kind: .appTransaction)
        }
        do throws(StorageError) {
            let kept = try await storage.recordAppTransaction(purchase, of: user, appBundleID: app.bundleID, signed: signed, receivedAt: now)
            try await storage.appendAudit(
                AuditEntry.Draft(
                    appUserID: user, appBundleID: app.bundleID, at: now, kind: .appTransactionRecorded,
                    detail: AuditDetail(originalTransactionIDs: [], action: action, appPurchase: kept)))
            logger.info(
                "app transaction recorded",
                metadata: [
                    "app": "\(app.id)", "appUserId": "\(user.rawValue)", "appTransactionId": "\(purchase.appTransactionID ?? "none")",
                    "originalApplicationVersion": "\(kept.originalApplicationVersion)",
                ])
            return kept
        } catch {
            throw .storage(error)
        }
    }

    /// Tells the users who posted the app transaction of a `RESCIND_CONSENT` notification (a
    /// webhook event each, and a timeline entry); nothing for another notification. Repeating it
    /// tells nobody twice, so a redelivery, or a retry after a failure here, converges.
    func followConsent(_ verified: AppEvidenceVerifier.Verified, now: Date) async throws(IngestError) {
        guard verified.notificationType == NotificationTypeV2.rescindConsent.rawValue, let notificationUUID = verified.appleID else { return }
        guard let appTransactionID = verified.appTransactionID else {
            logger.warning("consent rescinded for an app transaction without an id: no user can be told", metadata: ["app": "\(app.id)"])
            return
        }
        let rescission = ConsentRescission(
            appTransactionID: appTransactionID, environment: verified.environment, notificationUUID: notificationUUID,
            rescindedAt: verified.signedDate ?? now)
        let told: [AppUserID]
        do throws(StorageError) {
            told = try await storage.rescindConsent(rescission, appBundleID: app.bundleID, at: now)
        } catch {
            throw .storage(error)
        }
        if !told.isEmpty { webhookWakeUp.nudge() }
        logger.notice(
            "consent rescinded", metadata: ["app": "\(app.id)", "appTransactionId": "\(appTransactionID)", "usersTold": "\(told.count)"])
    }
}

public import Foundation
import Logging
import PerennialAppStore
public import PerennialCore
public import PerennialStorage

extension EvidencePipeline {
    /// Verifies a StoreKit 2 app transaction with every rule of the app and keeps the original app
    /// purchase it proves for `user` (the earliest, when the user already has one); returns what
    /// is kept. An app transaction buys no subscription, so it changes no record, view or event.
    public func recordAppTransaction(_ signed: String, presentedBy user: AppUserID, now: Date) async throws(IngestError) -> OriginalAppPurchase {
        let purchase: OriginalAppPurchase
        do throws(EvidenceError) {
            purchase = try await app.verifier.appTransaction(signed)
        } catch {
            throw refusal(error, kind: .appTransaction)
        }
        do throws(StorageError) {
            let kept = try await storage.recordAppTransaction(purchase, of: user, appBundleID: app.bundleID, signed: signed, receivedAt: now)
            try await storage.appendAudit(
                AuditEntry.Draft(appUserID: user, at: now, kind: .appTransactionRecorded, detail: AuditDetail(originalTransactionIDs: [], appPurchase: kept)))
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
}

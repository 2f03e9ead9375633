import Foundation
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// Asks Apple for the current records of one subscription: the App Store Server API's
/// subscription statuses when the app has keys, else verifyReceipt with the latest stored receipt.
/// Every answer is verified by the app's ``PerennialAppStore/AppEvidenceVerifier`` like any other
/// evidence before it becomes records.
struct AppleStatusQuery: Sendable {
    let storage: any SubscriberStorage

    func ask(_ check: ReconciliationCheck, app: AppContext, now: Date) async throws(ReconciliationError) -> AppEvidenceVerifier.Verified {
        if let client = app.serverAPI {
            let data: Data
            do throws(AppStoreServerAPIError) {
                data = try await client.sendReturningData(.subscriptionStatuses(transactionID: check.originalTransactionID))
            } catch {
                throw .apple(error.description)
            }
            do throws(EvidenceError) {
                return try await app.verifier.subscriptionStatuses(data, fallback: check.environment)
            } catch {
                throw .unreadableAnswer(error.description)
            }
        }
        if app.verifier.usesVerifyReceipt {
            let stored: StoredEvidence?
            do {
                stored = try await storage.latestReceipt(appBundleID: app.bundleID, originalTransactionID: check.originalTransactionID)
            } catch {
                throw .apple("cannot read the stored receipt: \(error)")
            }
            if let stored {
                do throws(EvidenceError) {
                    return try await app.verifier.reverifyReceipt(receiptData(of: stored), environment: check.environment, receivedAt: now)
                } catch {
                    switch error {
                    case .receiptRejected, .upstreamRejected, .appleUnavailable, .notConfigured: throw .apple(error.description)
                    default: throw .unreadableAnswer("verifyReceipt: \(error)")
                    }
                }
            }
        }
        throw .noWayToAsk(app: app.id, originalTransactionID: check.originalTransactionID)
    }

    /// The receipt to send: `latest_receipt` of a stored verifyReceipt answer, or the stored
    /// receipt itself (base64).
    private func receiptData(of stored: StoredEvidence) -> String {
        if let answer = try? JSONDecoder().decode(VerifyReceiptResponse.self, from: stored.raw), let latest = answer.latest_receipt {
            return latest
        }
        return stored.raw.base64EncodedString()
    }
}

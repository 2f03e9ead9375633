public import Foundation
import PerennialAppStore
import PerennialCore
public import PerennialStorage

/// A StoreKit 2 signed transaction posted by an app for one of its users.
public enum SignedTransactionIngest {
    /// Verifies `signed` for `app` (signature chain, bundle id, an accepted environment) and
    /// returns it as evidence presented by `user`.
    ///
    /// The idempotency key is a digest of the user and the JWS: the same user posting the same
    /// transaction again changes nothing, another user presenting it goes through the transfer policy.
    public static func evidence(signed: String, user: AppUserID, app: AppContext, now: Date) async throws(IngestError) -> IncomingEvidence {
        let verifier = try SignedPayloadEnvironment.verifier(for: signed, app: app)
        let payload: JWSTransactionDecodedPayload
        do throws(SignedDataVerificationError) {
            payload = try await verifier.verifyTransaction(signed)
        } catch {
            throw IngestError(error, accepted: app.environments.map(\.rawValue))
        }
        let transaction: Transaction
        do throws(NormalizationError) {
            transaction = try payload.transaction(source: .signedTransaction)
        } catch {
            throw .invalidEvidence("\(error)")
        }
        let raw = Data(signed.utf8)
        return IncomingEvidence(
            appBundleID: app.bundleID, kind: .signedTransaction,
            idempotencyKey: EvidenceDigest.key("transaction", Data(user.rawValue.utf8), raw), raw: raw, receivedAt: now,
            records: EvidenceRecords(transactions: [transaction]), presentedBy: user, environment: verifier.environment)
    }
}

public import Foundation
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// An App Store Server Notification V2 POSTed by Apple for one app.
public enum NotificationV2Ingest {
    /// Verifies the body (`{"signedPayload": …}`): the envelope's and every nested JWS's signature,
    /// bundle id, environment (one the app accepts) and, in production, app Apple id. The
    /// idempotency key is the `notificationUUID`, so Apple's retries apply once.
    public static func verify(body: Data, app: AppContext, now: Date) async throws(IngestError) -> NotificationEvidence {
        // The one field is peeked rather than decoded: the body is kilobytes of JWS that
        // `JSONDecoder` would scan character by character on its way to a `String`.
        let peeked: String?
        do {
            peeked = try JSONFieldPeek.string(at: ["signedPayload"], in: body)
        } catch {
            throw .malformedRequest("the body is not {\"signedPayload\": …}: \(error)")
        }
        guard let signedPayload = peeked else { throw .malformedRequest("no signedPayload") }
        let verifier = try SignedPayloadEnvironment.verifier(for: signedPayload, app: app)
        let notification: VerifiedNotification
        do throws(SignedDataVerificationError) {
            notification = try await verifier.verifyNotification(signedPayload)
        } catch {
            throw IngestError(error, accepted: app.environments.map(\.rawValue))
        }
        let type = notification.payload.notificationType?.rawValue ?? "unknown"
        guard let uuid = notification.payload.notificationUUID, !uuid.isEmpty else {
            throw .invalidEvidence("the notification has no notificationUUID")
        }
        var records = EvidenceRecords()
        do throws(NormalizationError) {
            if let transaction = notification.transaction { records.transactions.append(try transaction.transaction(source: .notificationV2)) }
            if let info = notification.renewalInfo { records.renewalInfos.append(try info.renewalInfo(source: .notificationV2)) }
        } catch {
            throw .invalidEvidence(error.description)
        }
        guard !records.transactions.isEmpty || !records.renewalInfos.isEmpty else { return NotificationEvidence(evidence: nil, notificationType: type) }
        return NotificationEvidence(
            evidence: IncomingEvidence(
                appBundleID: app.bundleID, kind: .notificationV2, idempotencyKey: "v2:" + uuid, raw: body, receivedAt: now,
                records: records, presentedBy: nil, environment: verifier.environment),
            notificationType: type)
    }
}

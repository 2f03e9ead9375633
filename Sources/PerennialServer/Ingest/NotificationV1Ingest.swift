public import Foundation
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// An App Store Server Notification V1 (the legacy, unsigned JSON) POSTed by Apple for one app.
public enum NotificationV1Ingest {
    /// Authenticates the body by its `password` — the app's shared secret, compared in constant
    /// time, the only proof a V1 notification carries — then checks bundle id and environment.
    /// V1 has no notification id, so the idempotency key is a digest of the body.
    public static func verify(body: Data, app: AppContext, now: Date) throws(IngestError) -> NotificationEvidence {
        guard let secret = app.sharedSecret else {
            throw .notConfigured("app \(app.id) has no shared secret to authenticate V1 notifications")
        }
        let notification: NotificationV1
        do {
            notification = try JSONDecoder().decode(NotificationV1.self, from: body)
        } catch {
            throw .malformedRequest("the body is not a V1 notification: \(error)")
        }
        guard let password = notification.password, ConstantTime.equals(password, secret) else { throw .wrongSharedSecret }
        let bundleID = notification.bid ?? notification.unified_receipt?.latest_receipt_info?.first?.bid
        guard bundleID == app.bundleID else { throw .wrongBundleID(expected: app.bundleID, actual: bundleID) }
        let claimed = (notification.unified_receipt?.environment ?? notification.environment).map { AppStoreEnvironment(rawValue: $0.rawValue) }
        guard let environment = claimed, app.accepts(environment) else {
            throw .wrongEnvironment(accepted: app.environments.map(\.rawValue), actual: claimed?.rawValue)
        }
        let records: EvidenceRecords
        do throws(NormalizationError) {
            records = try notification.evidenceRecords(receivedAt: now)
        } catch {
            throw .invalidEvidence(error.description)
        }
        let type = notification.notification_type?.rawValue ?? "unknown"
        guard !records.transactions.isEmpty || !records.renewalInfos.isEmpty else {
            return NotificationEvidence(evidence: nil, notificationType: type)
        }
        return NotificationEvidence(
            evidence: IncomingEvidence(
                appBundleID: app.bundleID, kind: .notificationV1, idempotencyKey: EvidenceDigest.key("v1", body), raw: body,
                receivedAt: now, records: records, presentedBy: nil, environment: environment),
            notificationType: type)
    }
}

import Foundation
import PerennialCore
import PerennialStorage

/// The storage the routes use when webhooks are delivered: every call goes to `base`, and an
/// apply that enqueued events nudges the webhook job, so delivery starts at once without the
/// ingest paths knowing about webhooks.
struct WebhookNudgingStorage: SubscriberStorage {
    let base: any SubscriberStorage
    let wakeUp: WebhookWakeUp

    func migrate() async throws(StorageError) { try await base.migrate() }

    func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(StorageError) -> ApplyResult {
        let result = try await base.apply(evidence, with: applier, now: now)
        if case .applied(let applied) = result, !applied.events.isEmpty { wakeUp.nudge() }
        return result
    }

    func subscriber(_ user: AppUserID, appBundleID: String) async throws(StorageError) -> StoredSubscriber {
        try await base.subscriber(user, appBundleID: appBundleID)
    }

    func records(ownedBy user: AppUserID, appBundleID: String) async throws(StorageError) -> RecordSet {
        try await base.records(ownedBy: user, appBundleID: appBundleID)
    }

    func appAccountToken(for user: AppUserID) async throws(StorageError) -> UUID { try await base.appAccountToken(for: user) }

    func appUser(forAppAccountToken token: UUID) async throws(StorageError) -> AppUserID? {
        try await base.appUser(forAppAccountToken: token)
    }

    func timeline(of user: AppUserID) async throws(StorageError) -> [AuditEntry] { try await base.timeline(of: user) }

    func evidence(id: Int64) async throws(StorageError) -> StoredEvidence? { try await base.evidence(id: id) }

    func pendingOutbox(limit: Int) async throws(StorageError) -> [OutboxEntry] { try await base.pendingOutbox(limit: limit) }

    func ping() async throws(StorageError) { try await base.ping() }

    func evidenceCount() async throws(StorageError) -> Int { try await base.evidenceCount() }
}

import Foundation
import PerennialCore
import PerennialStorage

/// A storage whose database is gone: every call fails, as a dropped PostgreSQL connection would.
struct UnreachableStorage: SubscriberStorage {
    private var failure: StorageError { .database(operation: "connect", reason: "connection refused") }

    func migrate() async throws(StorageError) {}
    func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(StorageError) -> ApplyResult { throw failure }
    func subscriber(_ user: AppUserID, appBundleID: String) async throws(StorageError) -> StoredSubscriber { throw failure }
    func records(ownedBy user: AppUserID, appBundleID: String) async throws(StorageError) -> RecordSet { throw failure }
    func appAccountToken(for user: AppUserID) async throws(StorageError) -> UUID { throw failure }
    func appUser(forAppAccountToken token: UUID) async throws(StorageError) -> AppUserID? { throw failure }
    func timeline(of user: AppUserID) async throws(StorageError) -> [AuditEntry] { throw failure }
    func evidence(id: Int64) async throws(StorageError) -> StoredEvidence? { throw failure }
    func pendingOutbox(limit: Int) async throws(StorageError) -> [OutboxEntry] { throw failure }
    func ping() async throws(StorageError) { throw failure }
    func evidenceCount() async throws(StorageError) -> Int { throw failure }
}

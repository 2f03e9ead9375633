public import Foundation
public import PerennialCore

/// Where Perennial keeps evidence, records, bindings, views, the outbox and the audit trail.
///
/// One protocol so the server does not care whether it runs on embedded SQLite or a shared
/// PostgreSQL; every implementation passes the same contract suites (`PerennialStorageContract`).
/// It is composed of the capabilities every back end has: the subscribers (declared here), the
/// webhook job's outbox (``WebhookOutbox``) and endpoints (``WebhookEndpointStore``), the
/// reconciliation job's schedule (``ReconciliationSchedule``), operators' grants
/// (``EntitlementGrantStore``), the original app purchases (``AppTransactionStore``) and the
/// analytics counters (``AnalyticsStorage``), the refund requests (``ConsumptionStore``) and the
/// dashboard's sessions (``DashboardSessionStore``), the leased jobs (``JobStore``), what
/// names a user (``PersonalDataStore``) and the imports from a previous backend
/// (``ImportJobStore``), so a job is handed the storage and no caller has to
/// ask what a back end can do. The decisions of an apply live in ``EvidenceApplier``, written
/// once; an implementation only loads a ``StorageSnapshot`` and writes the ``WritePlan``, both
/// inside one database transaction.
public protocol SubscriberStorage:
    WebhookOutbox, WebhookEndpointStore, ReconciliationSchedule, EntitlementGrantStore, AppTransactionStore, AnalyticsStorage,
    ConsumptionStore, DashboardSessionStore, JobStore, PersonalDataStore, ImportJobStore
{
    /// Brings the schema to the newest version; safe to run at every start, and twice, and from
    /// two processes at once. Refuses, changing nothing, a database a newer Perennial migrated
    /// (``StorageError/schemaNewerThanBinary(databaseMigration:newestKnown:)``).
    func migrate() async throws(StorageError)

    /// The applied and pending migrations, read without changing anything (a database never
    /// migrated has every migration pending): what an operator checks before an upgrade, and
    /// what a server told not to migrate checks before it starts.
    func schemaStatus() async throws(StorageError) -> SchemaStatus

    /// Applies one piece of evidence atomically: checks the idempotency key, merges the records,
    /// binds purchases, recomputes views, enqueues events and writes the audit — or changes nothing.
    func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(StorageError) -> ApplyResult

    /// Unbinds a purchase of the app from its owner for an operator's `action`: the binding goes,
    /// the owner's view, events and audit follow (``EvidenceApplier/release(_:from:before:appBundleID:action:now:)``),
    /// in one transaction; the next user to present the purchase is bound to it.
    /// - Returns: what was written; nil when no user of the app owns the purchase (nothing changed).
    func releasePurchase(
        _ originalTransactionID: String, appBundleID: String, with applier: EvidenceApplier, action: AdminAction, now: Date
    ) async throws(StorageError) -> PurchaseRelease?

    /// A user's records and last view in one app.
    func subscriber(_ user: AppUserID, appBundleID: String) async throws(StorageError) -> StoredSubscriber

    /// A user's records in one app, without the last view: what every answer is recomputed from,
    /// so the hot read path skips decoding a view it would throw away.
    func records(ownedBy user: AppUserID, appBundleID: String) async throws(StorageError) -> RecordSet

    /// The token an app passes to StoreKit 2 purchases of `user`; created on first call, stable after.
    /// App user ids are each app's own: the same id in two apps is two users with two tokens, so
    /// one app's key never reads another app's token.
    func appAccountToken(for user: AppUserID, appBundleID: String) async throws(StorageError) -> UUID

    /// The user of the app a StoreKit 2 purchase's app account token belongs to.
    func appUser(forAppAccountToken token: UUID, appBundleID: String) async throws(StorageError) -> AppUserID?

    /// The purchase a transaction id belongs to — the id of any of its transactions, or its
    /// original transaction id (the id in Apple's receipt emails and support requests) — with its
    /// owner; nil when no stored transaction has it.
    func purchase(ofTransaction transactionID: String) async throws(StorageError) -> FoundPurchase?

    /// The user's audit entries in the app, oldest first (with the user's entries older than
    /// app-scoped timelines that no app could be told for).
    func timeline(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [AuditEntry]

    /// Adds a timeline entry that no evidence caused (an exchange with Apple that changed no record).
    func appendAudit(_ entry: AuditEntry.Draft) async throws(StorageError)

    /// Stored evidence by id, with its raw bytes.
    func evidence(id: Int64) async throws(StorageError) -> StoredEvidence?

    /// Outbox entries still to be delivered (neither delivered nor dead-lettered), in insertion
    /// order: how far delivery lags is the age of the first.
    func pendingOutbox(limit: Int) async throws(StorageError) -> [OutboxEntry]

    /// Runs a trivial query, so a readiness probe learns whether the database answers now (a
    /// server whose database is gone must leave the load balancer's rotation, not fail requests).
    func ping() async throws(StorageError)

    /// How many pieces of evidence are stored, duplicates excluded: lets operators and tests see
    /// that a rejected request stored nothing.
    func evidenceCount() async throws(StorageError) -> Int
}

import Foundation
import PerennialCore

/// Where Perennial keeps evidence, records, bindings, views, the outbox and the audit trail.
///
/// One protocol so the server does not care whether it runs on embedded SQLite or a shared
/// PostgreSQL; every implementation passes the same contract suites (`PerennialStorageContract`).
/// It is composed of the capabilities every back end has: the subscribers' records
/// (``SubscriberRecordStore``) and their timelines (``AuditTrail``), the webhook job's outbox (``WebhookOutbox``) and endpoints (``WebhookEndpointStore``), the
/// reconciliation job's schedule (``ReconciliationSchedule``), operators' grants
/// (``EntitlementGrantStore``), the original app purchases (``AppTransactionStore``) and the
/// analytics counters (``AnalyticsStorage``), the refund requests (``ConsumptionStore``) and the
/// dashboard's sessions (``DashboardSessionStore``), the leased jobs (``JobStore``), what names a
/// user (``PersonalDataStore``), the imports from a previous backend (``ImportJobStore``) and the
/// offerings apps sell (``OfferingStore``), the experiments between them (``ExperimentStore``) and
/// the retention rules with the choices they made (``RetentionRuleStore``);
/// declared here is only what keeps the database itself (migrations, readiness). A service is
/// handed the capabilities it uses; `perennial serve` hands the whole storage to the pipeline,
/// which writes across them in one transaction. The decisions of an apply live in
/// ``EvidenceApplier``, written once; an implementation only loads a ``StorageSnapshot`` and writes
/// the ``WritePlan``, both inside one database transaction.
public protocol SubscriberStorage:
    SubscriberRecordStore, AuditTrail, WebhookOutbox, WebhookEndpointStore, ReconciliationSchedule, EntitlementGrantStore, AppTransactionStore,
    AnalyticsStorage, ConsumptionStore, DashboardSessionStore, JobStore, PersonalDataStore, ImportJobStore,
    OfferingStore, ExperimentStore, RetentionRuleStore
{
    /// Brings the schema to the newest version; safe to run at every start, and twice, and from
    /// two processes at once. Refuses, changing nothing, a database a newer Perennial migrated
    /// (``StorageError/schemaNewerThanBinary(databaseMigration:newestKnown:)``).
    func migrate() async throws(StorageError)

    /// The applied and pending migrations, read without changing anything (a database never
    /// migrated has every migration pending): what an operator checks before an upgrade, and
    /// what a server told not to migrate checks before it starts.
    func schemaStatus() async throws(StorageError) -> SchemaStatus

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

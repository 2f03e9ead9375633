import Foundation
import PerennialCore
import PerennialStorage

/// A storage whose database is gone: every call fails, as a dropped PostgreSQL connection would.
struct UnreachableStorage: SubscriberStorage {
    private var failure: StorageError { .database(operation: "connect", reason: "connection refused") }

    func migrate() async throws(StorageError) {}
    func schemaStatus() async throws(StorageError) -> SchemaStatus { throw failure }
    func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(StorageError) -> ApplyResult { throw failure }
    func subscriber(_ user: AppUserID, appBundleID: String) async throws(StorageError) -> StoredSubscriber { throw failure }
    func records(ownedBy user: AppUserID, appBundleID: String) async throws(StorageError) -> RecordSet { throw failure }
    func appAccountToken(for user: AppUserID, appBundleID: String) async throws(StorageError) -> UUID { throw failure }
    func appUser(forAppAccountToken token: UUID, appBundleID: String) async throws(StorageError) -> AppUserID? { throw failure }
    func purchase(ofTransaction transactionID: String) async throws(StorageError) -> FoundPurchase? { throw failure }
    func timeline(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [AuditEntry] { throw failure }
    func evidence(id: Int64) async throws(StorageError) -> StoredEvidence? { throw failure }
    func pendingOutbox(limit: Int) async throws(StorageError) -> [OutboxEntry] { throw failure }
    func ping() async throws(StorageError) { throw failure }
    func evidenceCount() async throws(StorageError) -> Int { throw failure }
    func openDashboardSession(_ session: StoredDashboardSession, now: Date) async throws(StorageError) { throw failure }
    func dashboardSession(idDigest: String, now: Date) async throws(StorageError) -> StoredDashboardSession? { throw failure }
    func closeDashboardSession(idDigest: String) async throws(StorageError) { throw failure }
    func addJob(_ job: StoredJob) async throws(StorageError) -> Bool { throw failure }
    func claimDueJobs(kind: String, owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [StoredJob] {
        throw failure
    }
    func updateJob(_ job: StoredJob, heldBy owner: String) async throws(StorageError) -> Bool { throw failure }
    func job(id: String, kind: String) async throws(StorageError) -> StoredJob? { throw failure }
    func startImport(_ job: ImportJob) async throws(StorageError) -> ImportJob { throw failure }
    func importJob(id: String) async throws(StorageError) -> ImportJob? { throw failure }
    func checkpointImport(_ job: ImportJob, from expectedSettledRows: Int, problems: [ImportProblem]) async throws(StorageError) -> Bool {
        throw failure
    }
    func imports(appBundleID: String, limit: Int) async throws(StorageError) -> [ImportJob] { throw failure }
    func importProblems(of id: String, after line: Int, limit: Int) async throws(StorageError) -> [ImportProblem] { throw failure }
    func analyticsCounters(_ request: AnalyticsCounterRequest) async throws(StorageError) -> [AnalyticsCounterRow] { throw failure }
    func rebuildAnalytics(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsRebuild {
        throw failure
    }

    func claimDeliveries(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [WebhookDelivery] { throw failure }
    func markDelivered(id: Int64, owner: String, at: Date) async throws(StorageError) -> Bool { throw failure }
    func markFailed(
        id: Int64, owner: String, attempts: Int, nextAttemptAt: Date, error: String, acceptedEndpoints: [String]
    ) async throws(StorageError) -> Bool { throw failure }
    func deadLetter(
        id: Int64, owner: String, attempts: Int, error: String, acceptedEndpoints: [String], at: Date
    ) async throws(StorageError) -> Bool { throw failure }
    func listDeliveries(state: WebhookDelivery.State, limit: Int) async throws(StorageError) -> [WebhookDelivery] { throw failure }
    func redeliver(id: Int64, now: Date) async throws(StorageError) -> Bool { throw failure }
    func requeueDelivered(appBundleID: String?, appUserID: AppUserID?, since: Date?, now: Date) async throws(StorageError) -> Int { throw failure }

    func claimDueChecks(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [ReconciliationCheck] { throw failure }
    func completeCheck(originalTransactionID: String, owner: String, now: Date, notBefore: Date) async throws(StorageError) -> Bool { throw failure }
    func failCheck(
        originalTransactionID: String, owner: String, attempts: Int, nextAttemptAt: Date, error: String, now: Date
    ) async throws(StorageError) -> Bool { throw failure }
    func scheduleSweep(now: Date, interval: TimeInterval) async throws(StorageError) -> Int? { throw failure }
    func latestReceipt(appBundleID: String, originalTransactionID: String) async throws(StorageError) -> StoredEvidence? { throw failure }
    func latestNotificationDate(appBundleID: String) async throws(StorageError) -> Date? { throw failure }

    func addGrant(_ write: GrantWrite) async throws(StorageError) -> Bool { throw failure }
    func revokeGrant(
        id: String, of user: AppUserID, appBundleID: String, by action: AdminAction, at: Date
    ) async throws(StorageError) -> EntitlementGrant? { throw failure }
    func grants(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [EntitlementGrant] { throw failure }
    func addWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool { throw failure }
    func updateWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool { throw failure }
    func removeWebhookEndpoint(id: String, appBundleID: String) async throws(StorageError) -> StoredWebhookEndpoint? { throw failure }
    func webhookEndpoints(appBundleID: String?) async throws(StorageError) -> [StoredWebhookEndpoint] { throw failure }
    func releasePurchase(
        _ originalTransactionID: String, appBundleID: String, with applier: EvidenceApplier, action: AdminAction, now: Date
    ) async throws(StorageError) -> PurchaseRelease? { throw failure }
    func recordAppTransaction(
        _ purchase: OriginalAppPurchase, of user: AppUserID, appBundleID: String, signed: String, receivedAt: Date
    ) async throws(StorageError) -> OriginalAppPurchase { throw failure }
    func appTransaction(of user: AppUserID, appBundleID: String) async throws(StorageError) -> OriginalAppPurchase? { throw failure }
    func appendAudit(_ entry: AuditEntry.Draft) async throws(StorageError) { throw failure }
    func addConsumptionRequest(_ request: RefundRequestRecord, audit: AuditEntry.Draft?) async throws(StorageError) -> Bool { throw failure }
    func claimDueConsumptionRequests(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError)
        -> [RefundRequestRecord]
    { throw failure }
    func updateConsumptionRequest(_ request: RefundRequestRecord, heldBy owner: String?, audit: AuditEntry.Draft?) async throws(StorageError)
        -> Bool
    { throw failure }
    func consumptionRequests(ofTransaction transactionID: String, appBundleID: String) async throws(StorageError) -> [RefundRequestRecord] {
        throw failure
    }
    func consumptionRequests(appBundleID: String, limit: Int) async throws(StorageError) -> [RefundRequestRecord] { throw failure }
    func reportConsumption(_ report: ConsumptionReport, of user: AppUserID, appBundleID: String) async throws(StorageError) { throw failure }
    func consumptionReport(of user: AppUserID, appBundleID: String) async throws(StorageError) -> ConsumptionReport? { throw failure }
    func rescindConsent(_ rescission: ConsentRescission, appBundleID: String, at: Date) async throws(StorageError) -> [AppUserID] { throw failure }
    func personalData(of user: AppUserID, appBundleID: String) async throws(StorageError) -> PersonalData? { throw failure }
    func erasePersonalData(_ erasure: PersonalDataErasure) async throws(StorageError) -> ErasedPersonalData? { throw failure }
}

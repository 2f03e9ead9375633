import Foundation
import PerennialCore
import PerennialSQLite
import PerennialStorage

/// SQLite storage that counts the reads of a user's records, grants and original app purchase (the
/// reads an answer needs when no apply computed it), and fails the writes of refund requests a test
/// asks to fail.
final class InstrumentedStorage: SubscriberStorage, @unchecked Sendable {
    let base: SQLiteStorage
    private let lock = NSLock()
    private var reads = 0
    private var otherReads = 0
    private var refundRequestFailures = 0

    init(base: SQLiteStorage) { self.base = base }

    var recordReads: Int { lock.withLock { reads } }
    /// Reads of the rest of an answer: the user's grants and original app purchase.
    var answerReads: Int { lock.withLock { otherReads } }

    /// Makes the next `count` writes of a refund request fail, as a lost database connection would.
    func failRefundRequestWrites(_ count: Int) { lock.withLock { refundRequestFailures = count } }

    func records(ownedBy user: AppUserID, appBundleID: String) async throws(StorageError) -> RecordSet {
        lock.withLock { reads += 1 }
        return try await base.records(ownedBy: user, appBundleID: appBundleID)
    }

    func migrate() async throws(StorageError) { try await base.migrate() }
    func schemaStatus() async throws(StorageError) -> SchemaStatus { try await base.schemaStatus() }
    func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(StorageError) -> ApplyResult {
        try await base.apply(evidence, with: applier, now: now)
    }
    func subscriber(_ user: AppUserID, appBundleID: String) async throws(StorageError) -> StoredSubscriber {
        try await base.subscriber(user, appBundleID: appBundleID)
    }
    func appAccountToken(for user: AppUserID, appBundleID: String) async throws(StorageError) -> UUID {
        try await base.appAccountToken(for: user, appBundleID: appBundleID)
    }
    func appUser(forAppAccountToken token: UUID, appBundleID: String) async throws(StorageError) -> AppUserID? {
        try await base.appUser(forAppAccountToken: token, appBundleID: appBundleID)
    }
    func purchase(ofTransaction transactionID: String) async throws(StorageError) -> FoundPurchase? {
        try await base.purchase(ofTransaction: transactionID)
    }
    func timeline(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [AuditEntry] { try await base.timeline(of: user, appBundleID: appBundleID) }
    func evidence(id: Int64) async throws(StorageError) -> StoredEvidence? { try await base.evidence(id: id) }
    func pendingOutbox(limit: Int) async throws(StorageError) -> [OutboxEntry] { try await base.pendingOutbox(limit: limit) }
    func ping() async throws(StorageError) { try await base.ping() }
    func evidenceCount() async throws(StorageError) -> Int { try await base.evidenceCount() }
    func analyticsCounters(_ request: AnalyticsCounterRequest) async throws(StorageError) -> [AnalyticsCounterRow] {
        try await base.analyticsCounters(request)
    }
    func rebuildAnalytics(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsRebuild {
        try await base.rebuildAnalytics(apps: apps)
    }

    func claimDeliveries(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [WebhookDelivery] {
        try await base.claimDeliveries(owner: owner, limit: limit, leaseFor: leaseFor, now: now)
    }
    func markDelivered(id: Int64, owner: String, at: Date) async throws(StorageError) -> Bool {
        try await base.markDelivered(id: id, owner: owner, at: at)
    }
    func markFailed(
        id: Int64, owner: String, attempts: Int, nextAttemptAt: Date, error: String, acceptedEndpoints: [String]
    ) async throws(StorageError) -> Bool {
        try await base.markFailed(
            id: id, owner: owner, attempts: attempts, nextAttemptAt: nextAttemptAt, error: error, acceptedEndpoints: acceptedEndpoints)
    }
    func deadLetter(
        id: Int64, owner: String, attempts: Int, error: String, acceptedEndpoints: [String], at: Date
    ) async throws(StorageError) -> Bool {
        try await base.deadLetter(id: id, owner: owner, attempts: attempts, error: error, acceptedEndpoints: acceptedEndpoints, at: at)
    }
    func listDeliveries(state: WebhookDelivery.State, limit: Int) async throws(StorageError) -> [WebhookDelivery] {
        try await base.listDeliveries(state: state, limit: limit)
    }
    func redeliver(id: Int64, now: Date) async throws(StorageError) -> Bool { try await base.redeliver(id: id, now: now) }
    func requeueDelivered(appBundleID: String?, appUserID: AppUserID?, since: Date?, now: Date) async throws(StorageError) -> Int {
        try await base.requeueDelivered(appBundleID: appBundleID, appUserID: appUserID, since: since, now: now)
    }
    func claimDueChecks(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [ReconciliationCheck] {
        try await base.claimDueChecks(owner: owner, limit: limit, leaseFor: leaseFor, now: now)
    }
    func completeCheck(originalTransactionID: String, owner: String, now: Date, notBefore: Date) async throws(StorageError) -> Bool {
        try await base.completeCheck(originalTransactionID: originalTransactionID, owner: owner, now: now, notBefore: notBefore)
    }
    func failCheck(
        originalTransactionID: String, owner: String, attempts: Int, nextAttemptAt: Date, error: String, now: Date
    ) async throws(StorageError) -> Bool {
        try await base.failCheck(
            originalTransactionID: originalTransactionID, owner: owner, attempts: attempts, nextAttemptAt: nextAttemptAt, error: error, now: now)
    }
    func scheduleSweep(now: Date, interval: TimeInterval) async throws(StorageError) -> Int? { try await base.scheduleSweep(now: now, interval: interval) }
    func latestReceipt(appBundleID: String, originalTransactionID: String) async throws(StorageError) -> StoredEvidence? {
        try await base.latestReceipt(appBundleID: appBundleID, originalTransactionID: originalTransactionID)
    }
    func latestNotificationDate(appBundleID: String) async throws(StorageError) -> Date? {
        try await base.latestNotificationDate(appBundleID: appBundleID)
    }
    func addGrant(_ write: GrantWrite) async throws(StorageError) -> Bool { try await base.addGrant(write) }
    func revokeGrant(
        id: String, of user: AppUserID, appBundleID: String, by action: AdminAction, at: Date
    ) async throws(StorageError) -> EntitlementGrant? {
        try await base.revokeGrant(id: id, of: user, appBundleID: appBundleID, by: action, at: at)
    }
    func grants(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [EntitlementGrant] {
        lock.withLock { otherReads += 1 }
        return try await base.grants(of: user, appBundleID: appBundleID)
    }
    func addWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool { try await base.addWebhookEndpoint(endpoint) }
    func updateWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool {
        try await base.updateWebhookEndpoint(endpoint)
    }
    func removeWebhookEndpoint(id: String, appBundleID: String) async throws(StorageError) -> StoredWebhookEndpoint? {
        try await base.removeWebhookEndpoint(id: id, appBundleID: appBundleID)
    }
    func webhookEndpoints(appBundleID: String?) async throws(StorageError) -> [StoredWebhookEndpoint] {
        try await base.webhookEndpoints(appBundleID: appBundleID)
    }
    func releasePurchase(
        _ originalTransactionID: String, appBundleID: String, with applier: EvidenceApplier, action: AdminAction, now: Date
    ) async throws(StorageError) -> PurchaseRelease? {
        try await base.releasePurchase(originalTransactionID, appBundleID: appBundleID, with: applier, action: action, now: now)
    }
    func recordAppTransaction(
        _ purchase: OriginalAppPurchase, of user: AppUserID, appBundleID: String, signed: String, receivedAt: Date
    ) async throws(StorageError) -> OriginalAppPurchase {
        try await base.recordAppTransaction(purchase, of: user, appBundleID: appBundleID, signed: signed, receivedAt: receivedAt)
    }
    func appTransaction(of user: AppUserID, appBundleID: String) async throws(StorageError) -> OriginalAppPurchase? {
        lock.withLock { otherReads += 1 }
        return try await base.appTransaction(of: user, appBundleID: appBundleID)
    }
    func appendAudit(_ entry: AuditEntry.Draft) async throws(StorageError) { try await base.appendAudit(entry) }
    func addConsumptionRequest(_ request: RefundRequestRecord, audit: AuditEntry.Draft?) async throws(StorageError) -> Bool {
        let fails = lock.withLock {
            defer { refundRequestFailures = max(0, refundRequestFailures - 1) }
            return refundRequestFailures > 0
        }
        if fails { throw StorageError.database(operation: "add consumption request", reason: "connection lost") }
        return try await base.addConsumptionRequest(request, audit: audit)
    }
    func claimDueConsumptionRequests(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError)
        -> [RefundRequestRecord]
    {
        try await base.claimDueConsumptionRequests(owner: owner, limit: limit, leaseFor: leaseFor, now: now)
    }
    func updateConsumptionRequest(_ request: RefundRequestRecord, heldBy owner: String?, audit: AuditEntry.Draft?) async throws(StorageError)
        -> Bool
    {
        try await base.updateConsumptionRequest(request, heldBy: owner, audit: audit)
    }
    func consumptionRequests(ofTransaction transactionID: String, appBundleID: String) async throws(StorageError) -> [RefundRequestRecord] {
        try await base.consumptionRequests(ofTransaction: transactionID, appBundleID: appBundleID)
    }
    func consumptionRequests(appBundleID: String, limit: Int) async throws(StorageError) -> [RefundRequestRecord] {
        try await base.consumptionRequests(appBundleID: appBundleID, limit: limit)
    }
    func reportConsumption(_ report: ConsumptionReport, of user: AppUserID, appBundleID: String) async throws(StorageError) {
        try await base.reportConsumption(report, of: user, appBundleID: appBundleID)
    }
    func consumptionReport(of user: AppUserID, appBundleID: String) async throws(StorageError) -> ConsumptionReport? {
        try await base.consumptionReport(of: user, appBundleID: appBundleID)
    }
    func openDashboardSession(_ session: StoredDashboardSession, now: Date) async throws(StorageError) {
        try await base.openDashboardSession(session, now: now)
    }
    func dashboardSession(idDigest: String, now: Date) async throws(StorageError) -> StoredDashboardSession? {
        try await base.dashboardSession(idDigest: idDigest, now: now)
    }
    func closeDashboardSession(idDigest: String) async throws(StorageError) { try await base.closeDashboardSession(idDigest: idDigest) }
    func addJob(_ job: StoredJob) async throws(StorageError) -> Bool { try await base.addJob(job) }
    func claimDueJobs(kind: String, owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [StoredJob] {
        try await base.claimDueJobs(kind: kind, owner: owner, limit: limit, leaseFor: leaseFor, now: now)
    }
    func updateJob(_ job: StoredJob, heldBy owner: String) async throws(StorageError) -> Bool { try await base.updateJob(job, heldBy: owner) }
    func job(id: String, kind: String) async throws(StorageError) -> StoredJob? { try await base.job(id: id, kind: kind) }
    func startImport(_ job: ImportJob) async throws(StorageError) -> ImportJob { try await base.startImport(job) }
    func importJob(id: String) async throws(StorageError) -> ImportJob? { try await base.importJob(id: id) }
    func checkpointImport(_ job: ImportJob, from expectedSettledRows: Int, problems: [ImportProblem]) async throws(StorageError) -> Bool {
        try await base.checkpointImport(job, from: expectedSettledRows, problems: problems)
    }
    func imports(appBundleID: String, limit: Int) async throws(StorageError) -> [ImportJob] {
        try await base.imports(appBundleID: appBundleID, limit: limit)
    }
    func importProblems(of id: String, after line: Int, limit: Int) async throws(StorageError) -> [ImportProblem] {
        try await base.importProblems(of: id, after: line, limit: limit)
    }
    func rescindConsent(_ rescission: ConsentRescission, appBundleID: String, at: Date) async throws(StorageError) -> [AppUserID] {
        try await base.rescindConsent(rescission, appBundleID: appBundleID, at: at)
    }
    func personalData(of user: AppUserID, appBundleID: String) async throws(StorageError) -> PersonalData? {
        try await base.personalData(of: user, appBundleID: appBundleID)
    }
    func erasePersonalData(_ erasure: PersonalDataErasure) async throws(StorageError) -> ErasedPersonalData? { try await base.erasePersonalData(erasure) }
}

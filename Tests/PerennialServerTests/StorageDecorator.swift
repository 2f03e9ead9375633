import Foundation
import PerennialCore
import PerennialStorage

/// A storage in front of another that every call passes through ``intercept(_:)`` first: a test
/// double says only what it changes (count a read, fail a write, be unreachable) by implementing
/// that one hook, and the forwarding of every storage capability is written once, here, so a new
/// capability is added to one place instead of to every double.
protocol StorageDecorator: SubscriberStorage {
    /// The storage the calls go on to.
    var base: any SubscriberStorage { get }

    /// Runs before every call, named by `#function` (`records(ownedBy:appBundleID:)`); throwing
    /// fails the call without reaching ``base``.
    func intercept(_ operation: String) async throws(StorageError)
}

extension StorageDecorator {
    func records(ownedBy user: AppUserID, appBundleID: String) async throws(StorageError) -> RecordSet {
        try await intercept(#function)
        return try await base.records(ownedBy: user, appBundleID: appBundleID)
    }
    func migrate() async throws(StorageError) {
        try await intercept(#function)
        try await base.migrate()
    }
    func schemaStatus() async throws(StorageError) -> SchemaStatus {
        try await intercept(#function)
        return try await base.schemaStatus()
    }
    func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(StorageError) -> ApplyResult {
        try await intercept(#function)
        return try await base.apply(evidence, with: applier, now: now)
    }
    func subscriber(_ user: AppUserID, appBundleID: String) async throws(StorageError) -> StoredSubscriber {
        try await intercept(#function)
        return try await base.subscriber(user, appBundleID: appBundleID)
    }
    func appAccountToken(for user: AppUserID, appBundleID: String) async throws(StorageError) -> UUID {
        try await intercept(#function)
        return try await base.appAccountToken(for: user, appBundleID: appBundleID)
    }
    func appUser(forAppAccountToken token: UUID, appBundleID: String) async throws(StorageError) -> AppUserID? {
        try await intercept(#function)
        return try await base.appUser(forAppAccountToken: token, appBundleID: appBundleID)
    }
    func purchase(ofTransaction transactionID: String) async throws(StorageError) -> FoundPurchase? {
        try await intercept(#function)
        return try await base.purchase(ofTransaction: transactionID)
    }
    func timeline(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [AuditEntry] {
        try await intercept(#function)
        return try await base.timeline(of: user, appBundleID: appBundleID)
    }
    func evidence(id: Int64) async throws(StorageError) -> StoredEvidence? {
        try await intercept(#function)
        return try await base.evidence(id: id)
    }
    func pendingOutbox(limit: Int) async throws(StorageError) -> [OutboxEntry] {
        try await intercept(#function)
        return try await base.pendingOutbox(limit: limit)
    }
    func ping() async throws(StorageError) {
        try await intercept(#function)
        try await base.ping()
    }
    func evidenceCount() async throws(StorageError) -> Int {
        try await intercept(#function)
        return try await base.evidenceCount()
    }
    func analyticsCounters(_ request: AnalyticsCounterRequest) async throws(StorageError) -> [AnalyticsCounterRow] {
        try await intercept(#function)
        return try await base.analyticsCounters(request)
    }
    func rebuildAnalytics(apps: [String: SubscriptionFacts]) async throws(StorageError) -> AnalyticsRebuild {
        try await intercept(#function)
        return try await base.rebuildAnalytics(apps: apps)
    }
    func analyticsDefinitions() async throws(StorageError) -> Int {
        try await intercept(#function)
        return try await base.analyticsDefinitions()
    }
    func recordAnalyticsDefinitions(_ version: Int) async throws(StorageError) {
        try await intercept(#function)
        try await base.recordAnalyticsDefinitions(version)
    }
    func claimDeliveries(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [WebhookDelivery] {
        try await intercept(#function)
        return try await base.claimDeliveries(owner: owner, limit: limit, leaseFor: leaseFor, now: now)
    }
    func markDelivered(id: Int64, owner: String, at: Date) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.markDelivered(id: id, owner: owner, at: at)
    }
    func markFailed(
        id: Int64, owner: String, attempts: Int, nextAttemptAt: Date, error: String, acceptedEndpoints: [String]
    ) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.markFailed( id: id, owner: owner, attempts: attempts, nextAttemptAt: nextAttemptAt, error: error, acceptedEndpoints: acceptedEndpoints)
    }
    func deadLetter(
        id: Int64, owner: String, attempts: Int, error: String, acceptedEndpoints: [String], at: Date
    ) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.deadLetter(id: id, owner: owner, attempts: attempts, error: error, acceptedEndpoints: acceptedEndpoints, at: at)
    }
    func listDeliveries(state: WebhookDelivery.State, limit: Int) async throws(StorageError) -> [WebhookDelivery] {
        try await intercept(#function)
        return try await base.listDeliveries(state: state, limit: limit)
    }
    func redeliver(id: Int64, now: Date) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.redeliver(id: id, now: now)
    }
    func requeueDelivered(appBundleID: String?, appUserID: AppUserID?, since: Date?, now: Date) async throws(StorageError) -> Int {
        try await intercept(#function)
        return try await base.requeueDelivered(appBundleID: appBundleID, appUserID: appUserID, since: since, now: now)
    }
    func claimDueChecks(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [ReconciliationCheck] {
        try await intercept(#function)
        return try await base.claimDueChecks(owner: owner, limit: limit, leaseFor: leaseFor, now: now)
    }
    func completeCheck(originalTransactionID: String, owner: String, now: Date, notBefore: Date) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.completeCheck(originalTransactionID: originalTransactionID, owner: owner, now: now, notBefore: notBefore)
    }
    func failCheck(
        originalTransactionID: String, owner: String, attempts: Int, nextAttemptAt: Date, error: String, now: Date
    ) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.failCheck( originalTransactionID: originalTransactionID, owner: owner, attempts: attempts, nextAttemptAt: nextAttemptAt, error: error, now: now)
    }
    func scheduleSweep(now: Date, interval: TimeInterval) async throws(StorageError) -> Int? {
        try await intercept(#function)
        return try await base.scheduleSweep(now: now, interval: interval)
    }
    func latestReceipt(appBundleID: String, originalTransactionID: String) async throws(StorageError) -> StoredEvidence? {
        try await intercept(#function)
        return try await base.latestReceipt(appBundleID: appBundleID, originalTransactionID: originalTransactionID)
    }
    func latestNotificationDate(appBundleID: String) async throws(StorageError) -> Date? {
        try await intercept(#function)
        return try await base.latestNotificationDate(appBundleID: appBundleID)
    }
    func addGrant(_ write: GrantWrite) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.addGrant(write)
    }
    func revokeGrant(
        id: String, of user: AppUserID, appBundleID: String, by action: AdminAction, at: Date
    ) async throws(StorageError) -> EntitlementGrant? {
        try await intercept(#function)
        return try await base.revokeGrant(id: id, of: user, appBundleID: appBundleID, by: action, at: at)
    }
    func grants(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [EntitlementGrant] {
        try await intercept(#function)
        return try await base.grants(of: user, appBundleID: appBundleID)
    }
    func addWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.addWebhookEndpoint(endpoint)
    }
    func updateWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.updateWebhookEndpoint(endpoint)
    }
    func removeWebhookEndpoint(id: String, appBundleID: String) async throws(StorageError) -> StoredWebhookEndpoint? {
        try await intercept(#function)
        return try await base.removeWebhookEndpoint(id: id, appBundleID: appBundleID)
    }
    func webhookEndpoints(appBundleID: String?) async throws(StorageError) -> [StoredWebhookEndpoint] {
        try await intercept(#function)
        return try await base.webhookEndpoints(appBundleID: appBundleID)
    }
    func addOffering(_ offering: OfferingDefinition) async throws(StorageError) -> OfferingWrite {
        try await intercept(#function)
        return try await base.addOffering(offering)
    }
    func replaceOffering(_ offering: OfferingDefinition) async throws(StorageError) -> OfferingWrite {
        try await intercept(#function)
        return try await base.replaceOffering(offering)
    }
    func removeOffering(id: String, appBundleID: String) async throws(StorageError) -> OfferingDefinition? {
        try await intercept(#function)
        return try await base.removeOffering(id: id, appBundleID: appBundleID)
    }
    func offerings(appBundleID: String) async throws(StorageError) -> [OfferingDefinition] {
        try await intercept(#function)
        return try await base.offerings(appBundleID: appBundleID)
    }
    func addExperiment(_ experiment: ExperimentDefinition) async throws(StorageError) -> ExperimentWrite {
        try await intercept(#function)
        return try await base.addExperiment(experiment)
    }
    func replaceExperiment(_ experiment: ExperimentDefinition, expecting expected: ExperimentState) async throws(StorageError) -> ExperimentWrite {
        try await intercept(#function)
        return try await base.replaceExperiment(experiment, expecting: expected)
    }
    func experiments(appBundleID: String) async throws(StorageError) -> [ExperimentDefinition] {
        try await intercept(#function)
        return try await base.experiments(appBundleID: appBundleID)
    }
    func recordExposure(experimentID: String, appBundleID: String, user: AppUserID, at date: Date) async throws(StorageError) -> Date {
        try await intercept(#function)
        return try await base.recordExposure(experimentID: experimentID, appBundleID: appBundleID, user: user, at: date)
    }
    func exposures(experimentID: String, appBundleID: String) async throws(StorageError) -> [ExperimentExposure] {
        try await intercept(#function)
        return try await base.exposures(experimentID: experimentID, appBundleID: appBundleID)
    }
    func addRetentionRule(_ rule: RetentionRule, limit: Int) async throws(StorageError) -> RetentionRuleWrite {
        try await intercept(#function)
        return try await base.addRetentionRule(rule, limit: limit)
    }
    func replaceRetentionRule(_ rule: RetentionRule) async throws(StorageError) -> RetentionRuleWrite {
        try await intercept(#function)
        return try await base.replaceRetentionRule(rule)
    }
    func removeRetentionRule(id: String, appBundleID: String) async throws(StorageError) -> RetentionRule? {
        try await intercept(#function)
        return try await base.removeRetentionRule(id: id, appBundleID: appBundleID)
    }
    func retentionRules(appBundleID: String) async throws(StorageError) -> [RetentionRule] {
        try await intercept(#function)
        return try await base.retentionRules(appBundleID: appBundleID)
    }
    func retentionChoice(of user: AppUserID, appBundleID: String) async throws(StorageError) -> RetentionRuleChoice? {
        try await intercept(#function)
        return try await base.retentionChoice(of: user, appBundleID: appBundleID)
    }
    func releasePurchase(
        _ originalTransactionID: String, appBundleID: String, with applier: EvidenceApplier, action: AdminAction, now: Date
    ) async throws(StorageError) -> PurchaseRelease? {
        try await intercept(#function)
        return try await base.releasePurchase(originalTransactionID, appBundleID: appBundleID, with: applier, action: action, now: now)
    }
    func recordAppTransaction(
        _ purchase: OriginalAppPurchase, of user: AppUserID, appBundleID: String, signed: String, receivedAt: Date
    ) async throws(StorageError) -> OriginalAppPurchase {
        try await intercept(#function)
        return try await base.recordAppTransaction(purchase, of: user, appBundleID: appBundleID, signed: signed, receivedAt: receivedAt)
    }
    func appTransaction(of user: AppUserID, appBundleID: String) async throws(StorageError) -> OriginalAppPurchase? {
        try await intercept(#function)
        return try await base.appTransaction(of: user, appBundleID: appBundleID)
    }
    func appendAudit(_ entry: AuditEntry.Draft) async throws(StorageError) {
        try await intercept(#function)
        try await base.appendAudit(entry)
    }
    func addConsumptionRequest(_ request: RefundRequestRecord, audit: AuditEntry.Draft?) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.addConsumptionRequest(request, audit: audit)
    }
    func claimDueConsumptionRequests(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError)
        -> [RefundRequestRecord] {
        try await intercept(#function)
        return try await base.claimDueConsumptionRequests(owner: owner, limit: limit, leaseFor: leaseFor, now: now)
    }
    func updateConsumptionRequest(_ request: RefundRequestRecord, heldBy owner: String?, audit: AuditEntry.Draft?) async throws(StorageError)
        -> Bool {
        try await intercept(#function)
        return try await base.updateConsumptionRequest(request, heldBy: owner, audit: audit)
    }
    func consumptionRequests(ofTransaction transactionID: String, appBundleID: String) async throws(StorageError) -> [RefundRequestRecord] {
        try await intercept(#function)
        return try await base.consumptionRequests(ofTransaction: transactionID, appBundleID: appBundleID)
    }
    func consumptionRequests(appBundleID: String, limit: Int) async throws(StorageError) -> [RefundRequestRecord] {
        try await intercept(#function)
        return try await base.consumptionRequests(appBundleID: appBundleID, limit: limit)
    }
    func consumptionRequests(appBundleID: String, requestedFrom from: Date, before: Date) async throws(StorageError) -> [RefundRequestRecord] {
        try await intercept(#function)
        return try await base.consumptionRequests(appBundleID: appBundleID, requestedFrom: from, before: before)
    }
    func reportConsumption(_ report: ConsumptionReport, of user: AppUserID, appBundleID: String) async throws(StorageError) {
        try await intercept(#function)
        try await base.reportConsumption(report, of: user, appBundleID: appBundleID)
    }
    func consumptionReport(of user: AppUserID, appBundleID: String) async throws(StorageError) -> ConsumptionReport? {
        try await intercept(#function)
        return try await base.consumptionReport(of: user, appBundleID: appBundleID)
    }
    func openDashboardSession(_ session: StoredDashboardSession, now: Date) async throws(StorageError) {
        try await intercept(#function)
        try await base.openDashboardSession(session, now: now)
    }
    func dashboardSession(idDigest: String, now: Date) async throws(StorageError) -> StoredDashboardSession? {
        try await intercept(#function)
        return try await base.dashboardSession(idDigest: idDigest, now: now)
    }
    func closeDashboardSession(idDigest: String) async throws(StorageError) {
        try await intercept(#function)
        try await base.closeDashboardSession(idDigest: idDigest)
    }
    func addJob(_ job: StoredJob) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.addJob(job)
    }
    func claimDueJobs(kind: String, owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [StoredJob] {
        try await intercept(#function)
        return try await base.claimDueJobs(kind: kind, owner: owner, limit: limit, leaseFor: leaseFor, now: now)
    }
    func updateJob(_ job: StoredJob, heldBy owner: String) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.updateJob(job, heldBy: owner)
    }
    func job(id: String, kind: String) async throws(StorageError) -> StoredJob? {
        try await intercept(#function)
        return try await base.job(id: id, kind: kind)
    }
    func startImport(_ job: ImportJob) async throws(StorageError) -> ImportJob {
        try await intercept(#function)
        return try await base.startImport(job)
    }
    func importJob(id: String) async throws(StorageError) -> ImportJob? {
        try await intercept(#function)
        return try await base.importJob(id: id)
    }
    func checkpointImport(_ job: ImportJob, from expectedSettledRows: Int, problems: [ImportProblem]) async throws(StorageError) -> Bool {
        try await intercept(#function)
        return try await base.checkpointImport(job, from: expectedSettledRows, problems: problems)
    }
    func imports(appBundleID: String, limit: Int) async throws(StorageError) -> [ImportJob] {
        try await intercept(#function)
        return try await base.imports(appBundleID: appBundleID, limit: limit)
    }
    func importProblems(of id: String, after line: Int, limit: Int) async throws(StorageError) -> [ImportProblem] {
        try await intercept(#function)
        return try await base.importProblems(of: id, after: line, limit: limit)
    }
    func rescindConsent(_ rescission: ConsentRescission, appBundleID: String, at: Date) async throws(StorageError) -> [AppUserID] {
        try await intercept(#function)
        return try await base.rescindConsent(rescission, appBundleID: appBundleID, at: at)
    }
    func personalData(of user: AppUserID, appBundleID: String) async throws(StorageError) -> PersonalData? {
        try await intercept(#function)
        return try await base.personalData(of: user, appBundleID: appBundleID)
    }
    func erasePersonalData(_ erasure: PersonalDataErasure) async throws(StorageError) -> ErasedPersonalData? {
        try await intercept(#function)
        return try await base.erasePersonalData(erasure)
    }
}

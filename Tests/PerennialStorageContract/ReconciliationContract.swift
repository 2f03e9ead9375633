import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/ReconciliationSchedule`` must have, run by each back
/// end's test target like ``StorageContract``: checks scheduled by applies, leases, completion and
/// failure, the once-per-interval sweep, and what the job reads to ask Apple.
public struct ReconciliationContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case applySchedulesACheckAfterThePeriodEnds
        case completionsCheckTheLeaseOwnerAndPostponeTheNextCheck
        case failedCheckComesBackAtItsNextAttempt
        case completionKeepsANextCheckStillAhead
        case sweepRunsOncePerInterval
        case latestReceiptAndNotificationAreFound
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage & ReconciliationSchedule
    let now = ContractFixture.day(10)
    let policy = ReconciliationPolicy()

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage & ReconciliationSchedule) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .applySchedulesACheckAfterThePeriodEnds: try await applySchedulesACheckAfterThePeriodEnds(storage)
        case .completionsCheckTheLeaseOwnerAndPostponeTheNextCheck: try await completionsCheckTheLeaseOwnerAndPostponeTheNextCheck(storage)
        case .failedCheckComesBackAtItsNextAttempt: try await failedCheckComesBackAtItsNextAttempt(storage)
        case .completionKeepsANextCheckStillAhead: try await completionKeepsANextCheckStillAhead(storage)
        case .sweepRunsOncePerInterval: try await sweepRunsOncePerInterval(storage)
        case .latestReceiptAndNotificationAreFound: try await latestReceiptAndNotificationAreFound(storage)
        }
    }

    /// Alice's monthly subscription bought on day 0: it should renew on day 30.
    private func purchase(_ storage: any SubscriberStorage, key: String = "k1", kind: EvidenceKind = .signedTransaction) async throws {
        let evidence = ContractFixture.evidence(
            key, by: "alice", kind: kind, EvidenceRecords(transactions: [ContractFixture.transaction("1000", original: "1000", purchased: 0)]))
        _ = try await storage.apply(evidence, with: ContractFixture.applier(), now: now)
    }

    private var renewalDue: Date { ContractFixture.day(30).addingTimeInterval(policy.margin) }

    func applySchedulesACheckAfterThePeriodEnds(_ storage: any SubscriberStorage & ReconciliationSchedule) async throws {
        try await purchase(storage)
        #expect(try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: now).isEmpty)
        #expect(try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: renewalDue.addingTimeInterval(-1)).isEmpty)
        let claimed = try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: renewalDue)
        #expect(
            claimed == [
                ReconciliationCheck(
                    originalTransactionID: "1000", appBundleID: ContractFixture.bundleID, environment: .sandbox, dueAt: renewalDue, attempts: 0)
            ])
        // Leased: nobody else gets it until the lease lapses.
        #expect(try await storage.claimDueChecks(owner: "b", limit: 10, leaseFor: 60, now: renewalDue.addingTimeInterval(59)).isEmpty)
        let reclaimed = try await storage.claimDueChecks(owner: "b", limit: 10, leaseFor: 60, now: renewalDue.addingTimeInterval(60))
        #expect(reclaimed.map(\.originalTransactionID) == ["1000"])
    }

    func completionsCheckTheLeaseOwnerAndPostponeTheNextCheck(_ storage: any SubscriberStorage & ReconciliationSchedule) async throws {
        try await purchase(storage)
        _ = try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: renewalDue)
        let later = renewalDue.addingTimeInterval(3600)
        #expect(try await !storage.completeCheck(originalTransactionID: "1000", owner: "b", now: renewalDue, notBefore: later))
        #expect(try await storage.completeCheck(originalTransactionID: "1000", owner: "a", now: renewalDue, notBefore: later))
        #expect(try await !storage.completeCheck(originalTransactionID: "1000", owner: "a", now: renewalDue, notBefore: later))
        // Apple's answer changed nothing: the check is due again no earlier than `notBefore`.
        #expect(try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: later.addingTimeInterval(-1)).isEmpty)
        #expect(try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: later).map(\.dueAt) == [later])
    }

    func failedCheckComesBackAtItsNextAttempt(_ storage: any SubscriberStorage & ReconciliationSchedule) async throws {
        try await purchase(storage)
        _ = try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 600, now: renewalDue)
        let retryAt = renewalDue.addingTimeInterval(120)
        #expect(try await !storage.failCheck(originalTransactionID: "1000", owner: "b", attempts: 1, nextAttemptAt: retryAt, error: "x", now: now))
        let before = try await storage.timeline(of: "alice", appBundleID: ContractFixture.bundleID)
        #expect(try await storage.failCheck(originalTransactionID: "1000", owner: "a", attempts: 1, nextAttemptAt: retryAt, error: "5000001", now: renewalDue))
        // The failed attempt is in the owner's timeline, without evidence (the refused one is not).
        let failures = try await storage.timeline(of: "alice", appBundleID: ContractFixture.bundleID).dropFirst(before.count)
        #expect(failures.map(\.entry.kind) == [.reconciliationFailed])
        #expect(failures.first?.evidenceID == nil && failures.first?.entry.at == renewalDue)
        #expect(failures.first?.entry.detail == .failedCheck(originalTransactionID: "1000", error: "5000001", attempts: 1, nextAttemptAt: retryAt))
        #expect(try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: retryAt.addingTimeInterval(-1)).isEmpty)
        let retried = try #require(try await storage.claimDueChecks(owner: "b", limit: 10, leaseFor: 60, now: retryAt).first)
        #expect(retried.attempts == 1 && retried.dueAt == retryAt)
        // New evidence reschedules the check and resets its failures.
        _ = try await storage.completeCheck(originalTransactionID: "1000", owner: "b", now: retryAt, notBefore: retryAt)
        try await purchase(storage, key: "k2", kind: .notificationV2)
        #expect(try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: renewalDue).first?.attempts == 0)
    }

    /// A sweep half an hour before the renewal: the check's answer, applied, schedules the renewal's
    /// check again, and completing the sweep's check must not put that off by the recheck interval.
    func completionKeepsANextCheckStillAhead(_ storage: any SubscriberStorage & ReconciliationSchedule) async throws {
        try await purchase(storage)
        let sweptAt = renewalDue.addingTimeInterval(-1800)
        #expect(try await storage.scheduleSweep(now: sweptAt, interval: 86_400) == 1)
        #expect(try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: sweptAt).map(\.dueAt) == [sweptAt])
        try await purchase(storage, key: "k2", kind: .reconciliation)
        #expect(try await storage.completeCheck(originalTransactionID: "1000", owner: "a", now: sweptAt, notBefore: sweptAt.addingTimeInterval(3600)))
        #expect(try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: renewalDue).map(\.dueAt) == [renewalDue])
    }

    func sweepRunsOncePerInterval(_ storage: any SubscriberStorage & ReconciliationSchedule) async throws {
        try await purchase(storage)
        #expect(try await storage.scheduleSweep(now: now, interval: 86_400) == 1)
        #expect(try await storage.scheduleSweep(now: now.addingTimeInterval(3600), interval: 86_400) == nil)
        let swept = try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: now)
        #expect(swept.map(\.originalTransactionID) == ["1000"] && swept.first?.dueAt == now)
        _ = try await storage.completeCheck(originalTransactionID: "1000", owner: "a", now: now, notBefore: now.addingTimeInterval(3600))
        // Apple's answer, applied by the check, scheduled the next check at the period's end again.
        try await purchase(storage, key: "k2", kind: .reconciliation)
        #expect(try await storage.claimDueChecks(owner: "a", limit: 10, leaseFor: 60, now: now.addingTimeInterval(7200)).isEmpty)
        // A day later the next sweep runs; a subscription expired beyond the lookback is left out.
        #expect(try await storage.scheduleSweep(now: now.addingTimeInterval(86_400), interval: 86_400) == 1)
        let farFuture = ContractFixture.day(30).addingTimeInterval(policy.expiredLookback + 1)
        #expect(try await storage.scheduleSweep(now: farFuture, interval: 86_400) == 0)
    }

    func latestReceiptAndNotificationAreFound(_ storage: any SubscriberStorage & ReconciliationSchedule) async throws {
        #expect(try await storage.latestNotificationDate(appBundleID: ContractFixture.bundleID) == nil)
        #expect(try await storage.latestReceipt(appBundleID: ContractFixture.bundleID, originalTransactionID: "1000") == nil)
        try await purchase(storage, key: "receipt-1", kind: .receipt)
        try await purchase(storage, key: "transaction-1", kind: .signedTransaction)
        let receipt = try #require(try await storage.latestReceipt(appBundleID: ContractFixture.bundleID, originalTransactionID: "1000"))
        #expect(receipt.kind == .receipt && receipt.raw == Data("raw receipt-1".utf8))
        #expect(try await storage.latestReceipt(appBundleID: "com.example.other", originalTransactionID: "1000") == nil)
        try await purchase(storage, key: "v2-1", kind: .notificationV2)
        #expect(try await storage.latestNotificationDate(appBundleID: ContractFixture.bundleID) == ContractFixture.day(1))
    }
}

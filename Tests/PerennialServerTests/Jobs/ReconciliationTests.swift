import Foundation
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// The reconciliation job against the simulator's Apple: dropped renewals repaired through the
/// Server API and through verifyReceipt, Apple's outages, the audit timeline, and the backfill.
@Suite struct ReconciliationTests {
    static func droppedRenewalIsRepaired(_ world: ReconciliationWorld, asking: ReconciliationWorld.Asking) async throws {
        try await world.purchase(asking: asking)
        #expect(try await world.entitlements() == ["basic", "pro"])
        // Nothing is due before the period ends.
        #expect(await world.runRound() == 0)
        let dropped = try await world.renewWithoutTelling()
        #expect(dropped.contains { $0.intent.type == .didRenew })
        #expect(try await world.entitlements().isEmpty)

        #expect(await world.runRound() == 1)
        #expect(try await world.entitlements() == ["basic", "pro"])
        let events = try await world.storage.pendingOutbox(limit: 10).map(\.event.kind)
        #expect(events == [EventKind.initialPurchase.rawValue, EventKind.renewal.rawValue])
        // The check and its outcome are in the timeline: reconciliation evidence, one event.
        let checks = try await world.reconciliationEntries()
        #expect(checks.count == 1)
        #expect(checks.first?.entry.entry.detail.eventIDs.count == 1)
        #expect(checks.first?.entry.entry.kind == .evidenceApplied)
        // The next check waits for the renewed period's end.
        #expect(await world.runRound() == 0)
    }

    @Test(arguments: ReconciliationWorld.Asking.allCases)
    func droppedRenewalIsRepairedOnSQLite(_ asking: ReconciliationWorld.Asking) async throws {
        try await Self.droppedRenewalIsRepaired(try await ReconciliationWorld(asking: asking), asking: asking)
    }

    @Test(.enabled(if: PostgresServerDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"), arguments: ReconciliationWorld.Asking.allCases)
    func droppedRenewalIsRepairedOnPostgres(_ asking: ReconciliationWorld.Asking) async throws {
        try await PostgresServerDatabase.with { storage in
            try await Self.droppedRenewalIsRepaired(try await ReconciliationWorld(asking: asking, storage: storage), asking: asking)
        }
    }

    /// An outage of Apple, in the shapes Apple fails.
    enum Outage: String, CaseIterable, Sendable {
        case serverAPIGeneralInternalRetryable
        case serverAPIRateLimited
        case verifyReceiptServerUnavailable

        var asking: ReconciliationWorld.Asking { self == .verifyReceiptServerUnavailable ? .verifyReceipt : .serverAPI }

        var response: AppStoreHTTPResponse {
            switch self {
            case .serverAPIGeneralInternalRetryable:
                AppStoreHTTPResponse(status: 500, body: Data(#"{"errorCode":5000001,"errorMessage":"An unknown error occurred."}"#.utf8))
            case .serverAPIRateLimited:
                AppStoreHTTPResponse(status: 429, body: Data(#"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#.utf8))
            case .verifyReceiptServerUnavailable:
                AppStoreHTTPResponse(status: 200, body: Data(#"{"status":21005}"#.utf8))
            }
        }
    }

    @Test(arguments: Outage.allCases)
    func appleFailingThenRecoveringLosesNothing(_ outage: Outage) async throws {
        let world = try await ReconciliationWorld(asking: outage.asking)
        try await world.purchase(asking: outage.asking)
        _ = try await world.renewWithoutTelling()
        // More failures than the client retries: the check fails and is retried later.
        world.apple.fail(next: 8, with: outage.response)
        let answeredBefore = world.apple.answeredRequests
        #expect(await world.runRound() == 1)
        #expect(world.apple.answeredRequests == answeredBefore)
        #expect(try await world.entitlements().isEmpty)
        #expect(try await world.reconciliationEntries().isEmpty)
        // Not due again before the backoff (and still failing once more after it).
        #expect(await world.runRound() == 0)
        world.clock.now = world.clock.now.addingTimeInterval(60)
        #expect(await world.runRound() == 1)
        #expect(try await world.entitlements().isEmpty)
        // Both failed attempts are in Alice's timeline, with Apple's error and the next attempt.
        let failures = try await world.failedChecks()
        #expect(failures.map(\.attempts) == [1, 2])
        #expect(failures.allSatisfy { $0.error.contains(outage.asking == .serverAPI ? "App Store Server API" : "verifyReceipt") })
        #expect(failures.last?.nextAttemptAt == world.clock.now.addingTimeInterval(120))
        // Apple is back: after the doubled backoff the renewal is applied, once.
        world.clock.now = world.clock.now.addingTimeInterval(120)
        #expect(await world.runRound() == 1)
        #expect(try await world.entitlements() == ["basic", "pro"])
        #expect(try await world.reconciliationEntries().count == 1)
        #expect(try await world.failedChecks().count == 2)
        #expect(try await world.storage.pendingOutbox(limit: 10).map(\.event.kind).filter { $0 == EventKind.renewal.rawValue }.count == 1)
    }

    @Test func backfillAppliesMissedNotificationsOnce() async throws {
        let world = try await ReconciliationWorld(asking: .serverAPI)
        // The purchase's notification arrives; the renewal's is dropped.
        for notification in try await world.purchase(asking: .serverAPI) {
            let evidence = try #require(try await world.pipeline.normalized(.notificationV2(try notification.v2Body()), now: world.clock.now))
            _ = try await world.storage.apply(evidence, with: world.app.applier, now: world.clock.now)
        }
        _ = try await world.renewWithoutTelling()
        let before = try await world.storage.evidenceCount()
        #expect(try await world.entitlements().isEmpty)

        await world.service.backfill()
        #expect(try await world.storage.evidenceCount() == before + 1)
        #expect(try await world.entitlements() == ["basic", "pro"])
        // Again: everything in the history is a duplicate now.
        await world.service.backfill()
        #expect(try await world.storage.evidenceCount() == before + 1)
    }
}

import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/ConsumptionStore`` must have, run by each back end's test
/// target like ``StorageContract``: a request stored once with its timeline line, claimed by one
/// owner at a time, updated only under its lease, found by its transaction; the latest usage report wins.
public struct ConsumptionContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case requestIsStoredOnceWithItsTimelineEntry
        case dueRequestsAreLeasedToOneOwner
        case updatesNeedTheLease
        case requestsAreFoundByTransactionAndListedNewestFirst
        case theLatestReportWins
        case requestsOfARangeAreListedOldestFirst
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .requestIsStoredOnceWithItsTimelineEntry: try await requestIsStoredOnceWithItsTimelineEntry(storage)
        case .dueRequestsAreLeasedToOneOwner: try await dueRequestsAreLeasedToOneOwner(storage)
        case .updatesNeedTheLease: try await updatesNeedTheLease(storage)
        case .requestsAreFoundByTransactionAndListedNewestFirst: try await requestsAreFoundByTransactionAndListedNewestFirst(storage)
        case .theLatestReportWins: try await theLatestReportWins(storage)
        case .requestsOfARangeAreListedOldestFirst: try await requestsOfARangeAreListedOldestFirst(storage)
        }
    }

    private let alice = AppUserID(rawValue: "alice")

    /// A pending request about `transactionID` sent `days` after the fixture's origin.
    private func request(_ id: String, transaction transactionID: String = "1001", days: Double, app: String = ContractFixture.bundleID)
        -> RefundRequestRecord
    {
        RefundRequestRecord(
            id: id, appBundleID: app, environment: .sandbox, transactionID: transactionID, originalTransactionID: "1000",
            productID: ContractFixture.productID, purchaseDate: ContractFixture.day(0), expiresDate: ContractFixture.day(30), appUserID: alice, reason: "UNINTENDED_PURCHASE", requestedAt: ContractFixture.day(days),
            state: .pending)
    }

    /// The analytics' read: the app's requests from the range's first instant, before its end.
    private func requestsOfARangeAreListedOldestFirst(_ storage: any SubscriberStorage) async throws {
        let requests = [request("r-3", days: 3), request("r-1", days: 1), request("r-2", days: 2), request("other", days: 2, app: "com.example.other")]
        for request in requests { _ = try await storage.addConsumptionRequest(request, audit: nil) }
        let found = try await storage.consumptionRequests(appBundleID: ContractFixture.bundleID, requestedFrom: ContractFixture.day(1), before: ContractFixture.day(3))
        #expect(found.map(\.id) == ["r-1", "r-2"])
    }

    private func requestIsStoredOnceWithItsTimelineEntry(_ storage: any SubscriberStorage) async throws {
        let first = request("n-1", days: 1)
        #expect(try await storage.addConsumptionRequest(first, audit: first.audit(.consumptionRequested, at: first.requestedAt)))
        var again = first
        again.reason = "OTHER"
        #expect(try await !storage.addConsumptionRequest(again, audit: again.audit(.consumptionRequested, at: first.requestedAt)))
        #expect(try await storage.consumptionRequests(appBundleID: ContractFixture.bundleID, limit: 10) == [first])

        let timeline = try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID)
        #expect(timeline.map(\.entry.kind) == [.consumptionRequested])
        #expect(timeline.first?.entry.detail.consumption == first)
        #expect(timeline.first?.evidenceID == nil)
    }

    private func dueRequestsAreLeasedToOneOwner(_ storage: any SubscriberStorage) async throws {
        let due = request("n-due", days: 1)
        var later = request("n-later", days: 3)
        later.nextAttemptAt = ContractFixture.day(3)
        var answered = request("n-answered", days: 0)
        answered.state = .answered
        for request in [due, later, answered] { _ = try await storage.addConsumptionRequest(request, audit: nil) }

        let now = ContractFixture.day(2)
        #expect(try await storage.claimDueConsumptionRequests(owner: "a", limit: 10, leaseFor: 60, now: now).map(\.id) == ["n-due"])
        #expect(try await storage.claimDueConsumptionRequests(owner: "b", limit: 10, leaseFor: 60, now: now).isEmpty)
        // The lease ends unreleased (its owner died): another owner takes the request over.
        let afterLease = now.addingTimeInterval(61)
        #expect(try await storage.claimDueConsumptionRequests(owner: "b", limit: 10, leaseFor: 60, now: afterLease).map(\.id) == ["n-due"])
        let claimed = try await storage.claimDueConsumptionRequests(owner: "c", limit: 1, leaseFor: 60, now: ContractFixture.day(4))
        #expect(claimed.map(\.id) == ["n-due"], "soonest first, up to the limit")
        #expect(try await storage.claimDueConsumptionRequests(owner: "c", limit: 10, leaseFor: 60, now: ContractFixture.day(4)).map(\.id) == ["n-later"])
    }

    private func updatesNeedTheLease(_ storage: any SubscriberStorage) async throws {
        var pending = request("n-1", days: 1)
        _ = try await storage.addConsumptionRequest(pending, audit: nil)
        _ = try await storage.claimDueConsumptionRequests(owner: "a", limit: 10, leaseFor: 60, now: ContractFixture.day(1))
        pending.state = .answered
        pending.attempts = 1
        pending.answeredAt = ContractFixture.day(1)
        #expect(try await !storage.updateConsumptionRequest(pending, heldBy: "b", audit: pending.audit(.consumptionAnswered, at: ContractFixture.day(1))))
        #expect(try await storage.consumptionRequests(appBundleID: ContractFixture.bundleID, limit: 10).first?.state == .pending)
        #expect(try await storage.updateConsumptionRequest(pending, heldBy: "a", audit: pending.audit(.consumptionAnswered, at: ContractFixture.day(1))))
        #expect(try await storage.consumptionRequests(appBundleID: ContractFixture.bundleID, limit: 10) == [pending])
        #expect(try await storage.timeline(of: alice, appBundleID: ContractFixture.bundleID).map(\.entry.kind) == [.consumptionAnswered])

        // Apple's decision arrives later, outside any lease; an answered request is never claimed again.
        pending.outcome = .declined
        pending.outcomeAt = ContractFixture.day(2)
        #expect(try await storage.updateConsumptionRequest(pending, heldBy: nil, audit: nil))
        #expect(try await storage.consumptionRequests(appBundleID: ContractFixture.bundleID, limit: 10).first?.outcome == .declined)
        #expect(try await storage.claimDueConsumptionRequests(owner: "a", limit: 10, leaseFor: 60, now: ContractFixture.day(5)).isEmpty)
        #expect(try await !storage.updateConsumptionRequest(request("n-unknown", days: 1), heldBy: nil, audit: nil))
    }

    private func requestsAreFoundByTransactionAndListedNewestFirst(_ storage: any SubscriberStorage) async throws {
        let first = request("n-1", transaction: "1001", days: 1)
        let second = request("n-2", transaction: "1001", days: 2)
        let other = request("n-3", transaction: "2001", days: 3)
        let otherApp = request("n-4", transaction: "1001", days: 4, app: "com.example.other")
        for request in [second, other, first, otherApp] { _ = try await storage.addConsumptionRequest(request, audit: nil) }
        #expect(try await storage.consumptionRequests(ofTransaction: "1001", appBundleID: ContractFixture.bundleID).map(\.id) == ["n-1", "n-2"])
        #expect(try await storage.consumptionRequests(ofTransaction: "9999", appBundleID: ContractFixture.bundleID).isEmpty)
        #expect(try await storage.consumptionRequests(appBundleID: ContractFixture.bundleID, limit: 2).map(\.id) == ["n-3", "n-2"])
    }

    private func theLatestReportWins(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.consumptionReport(of: alice, appBundleID: ContractFixture.bundleID) == nil)
        let first = ConsumptionReport(consumptionPercentage: 10_000, deliveryStatus: nil, sampleContentProvided: true, reportedAt: ContractFixture.day(1))
        let second = ConsumptionReport(
            consumptionPercentage: 75_500, deliveryStatus: "UNDELIVERED_SERVER_OUTAGE", sampleContentProvided: nil, reportedAt: ContractFixture.day(2))
        try await storage.reportConsumption(first, of: alice, appBundleID: ContractFixture.bundleID)
        try await storage.reportConsumption(second, of: alice, appBundleID: ContractFixture.bundleID)
        #expect(try await storage.consumptionReport(of: alice, appBundleID: ContractFixture.bundleID) == second)
        #expect(try await storage.consumptionReport(of: alice, appBundleID: "com.example.other") == nil)
        #expect(try await storage.consumptionReport(of: AppUserID(rawValue: "bob"), appBundleID: ContractFixture.bundleID) == nil)
    }
}

import Foundation
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/JobStore`` must have, run by each back end's test target
/// like ``StorageContract``: a job is added once, claimed by one owner at a time while due and
/// pending, taken over once its lease expires, and updated only by the owner that holds it.
public struct JobContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case aJobIsAddedOnce
        case onlyDuePendingJobsOfTheKindAreClaimed
        case aLeaseKeepsOthersOutUntilItExpires
        case onlyTheHolderUpdatesAndReleases
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
        case .aJobIsAddedOnce: try await aJobIsAddedOnce(storage)
        case .onlyDuePendingJobsOfTheKindAreClaimed: try await onlyDuePendingJobsOfTheKindAreClaimed(storage)
        case .aLeaseKeepsOthersOutUntilItExpires: try await aLeaseKeepsOthersOutUntilItExpires(storage)
        case .onlyTheHolderUpdatesAndReleases: try await onlyTheHolderUpdatesAndReleases(storage)
        }
    }

    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func job(_ id: String, kind: String = "massExtension", in seconds: Double = 0, state: StoredJob.State = .pending) -> StoredJob {
        StoredJob(id: id, kind: kind, appBundleID: "com.example.app", state: state, nextAttemptAt: start.addingTimeInterval(seconds), record: #"{"n":"\#(id)"}"#)
    }

    func aJobIsAddedOnce(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.addJob(job("a")))
        #expect(try await storage.addJob(job("a", in: 60)) == false)
        #expect(try await storage.job(id: "a", kind: "massExtension") == job("a"))
        #expect(try await storage.job(id: "a", kind: "import") == nil)
    }

    func onlyDuePendingJobsOfTheKindAreClaimed(_ storage: any SubscriberStorage) async throws {
        for added in [job("late", in: 30), job("b", in: -10), job("a", in: -20), job("done", in: -30, state: .done), job("other", kind: "import")] {
            #expect(try await storage.addJob(added))
        }
        let claimed = try await storage.claimDueJobs(kind: "massExtension", owner: "one", limit: 10, leaseFor: 60, now: start)
        #expect(claimed.map(\.id) == ["a", "b"])
        // Half a lease later: the late one is due, the claimed ones still held.
        #expect(try await storage.claimDueJobs(kind: "massExtension", owner: "one", limit: 10, leaseFor: 60, now: start.addingTimeInterval(30)).map(\.id) == ["late"])
    }

    func aLeaseKeepsOthersOutUntilItExpires(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.addJob(job("a")))
        #expect(try await storage.claimDueJobs(kind: "massExtension", owner: "one", limit: 10, leaseFor: 60, now: start).map(\.id) == ["a"])
        #expect(try await storage.claimDueJobs(kind: "massExtension", owner: "two", limit: 10, leaseFor: 60, now: start.addingTimeInterval(59)).isEmpty)
        // The first owner died: once its lease expires, the other takes the job over.
        #expect(try await storage.claimDueJobs(kind: "massExtension", owner: "two", limit: 10, leaseFor: 60, now: start.addingTimeInterval(60)).map(\.id) == ["a"])
    }

    func onlyTheHolderUpdatesAndReleases(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.addJob(job("a")))
        _ = try await storage.claimDueJobs(kind: "massExtension", owner: "one", limit: 10, leaseFor: 60, now: start)
        var next = job("a", in: 30)
        next.record = #"{"n":"polled"}"#
        #expect(try await storage.updateJob(next, heldBy: "two") == false)
        #expect(try await storage.job(id: "a", kind: "massExtension") == job("a"))
        #expect(try await storage.updateJob(next, heldBy: "one"))
        #expect(try await storage.job(id: "a", kind: "massExtension") == next)
        // Released: claimable again when due, by anyone.
        #expect(try await storage.claimDueJobs(kind: "massExtension", owner: "two", limit: 10, leaseFor: 60, now: start.addingTimeInterval(30)).map(\.id) == ["a"])
        var done = next
        done.state = .done
        #expect(try await storage.updateJob(done, heldBy: "two"))
        #expect(try await storage.claimDueJobs(kind: "massExtension", owner: "two", limit: 10, leaseFor: 60, now: start.addingTimeInterval(999)).isEmpty)
    }
}

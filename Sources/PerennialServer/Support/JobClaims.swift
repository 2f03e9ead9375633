import Foundation
import Logging
import PerennialCore
import PerennialStorage
import ServiceLifecycle

/// How a job kept as rows of ``PerennialStorage/JobStore`` takes its work: claim what is due of
/// its kind under a lease, follow each claimed row, and when nothing was due wait before looking
/// again, until the service shuts down. The mass extensions and the imports both work this way.
struct JobClaims: Sendable {
    let kind: String
    let owner: String
    /// Rows claimed at once.
    let limit: Int
    let leaseDuration: TimeInterval
    let claimInterval: Duration
    let storage: any JobStore
    let clock: any TimeSource
    let logger: Logger

    /// Claims and follows until the service shuts down.
    func run(_ follow: (StoredJob) async -> Void) async {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            guard await runOnce(follow) == 0 else { continue }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: claimInterval) }
        }
    }

    /// One round: claims the rows due and follows each once. Returns how many.
    func runOnce(_ follow: (StoredJob) async -> Void) async -> Int {
        let due: [StoredJob]
        do {
            due = try await storage.claimDueJobs(kind: kind, owner: owner, limit: limit, leaseFor: leaseDuration, now: clock.now)
        } catch {
            logger.error("cannot claim \(kind) jobs", metadata: ["error": "\(error)"])
            return 0
        }
        for stored in due { await follow(stored) }
        return due.count
    }
}

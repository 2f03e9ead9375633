import Foundation
import Logging
import PerennialCore
import PerennialStorage

/// Applies verified evidence through the app's ``PerennialStorage/EvidenceApplier`` and reads a
/// subscriber back, computed at the server's clock from the stored records.
struct EvidenceService: Sendable {
    let storage: any SubscriberStorage
    let logger: Logger

    /// Applies `evidence` in one database transaction; nil when it carried nothing to apply.
    func apply(_ evidence: IncomingEvidence, app: AppContext, now: Date) async throws(IngestError) -> ApplyResult? {
        do throws(StorageError) {
            let result = try await storage.apply(evidence, with: app.applier, now: now)
            switch result {
            case .applied(let applied):
                logger.info(
                    "evidence applied",
                    metadata: [
                        "app": "\(app.id)", "evidence.kind": "\(evidence.kind.rawValue)", "evidence.id": "\(applied.evidenceID)",
                        "originalTransactionIds": "\(evidence.originalTransactionIDs.joined(separator: ","))",
                        "events": "\(applied.events.count)",
                    ])
            case .duplicate(let id):
                logger.info(
                    "evidence already applied", metadata: ["app": "\(app.id)", "evidence.kind": "\(evidence.kind.rawValue)", "evidence.id": "\(id)"])
            }
            return result
        } catch {
            if case .emptyEvidence = error { return nil }
            throw .storage(error)
        }
    }

    /// The subscriber as the stored records say at `now` (never the stored view, which was
    /// computed at the time of the last apply and may have expired since).
    func view(of user: AppUserID, app: AppContext, now: Date) async throws(IngestError) -> SubscriberView {
        do throws(StorageError) {
            return app.engine.view(of: try await storage.records(ownedBy: user, appBundleID: app.bundleID), at: now)
        } catch {
            throw .storage(error)
        }
    }

    /// The response after `result`: the user's view now, naming the previous owner when the apply
    /// moved a purchase to the user.
    func response(for user: AppUserID, app: AppContext, after result: ApplyResult?, now: Date) async throws(IngestError) -> SubscriberResponse {
        var previousOwner: AppUserID?
        if case .applied(let applied) = result {
            previousOwner = applied.ownershipChanges.first { $0.presenter == user && $0.decision == .transferred }?.previousOwner
        }
        return SubscriberResponse(user: user, view: try await view(of: user, app: app, now: now), serverTime: now, previousOwner: previousOwner)
    }
}

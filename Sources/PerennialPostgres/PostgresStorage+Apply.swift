public import Foundation
import PostgresNIO
public import PerennialStorage

extension PostgresStorage {
    /// One transaction: evidence row (or the duplicate's id), locks and snapshot, plan, writes. Any
    /// error — the applier's or the database's — rolls all of it back, evidence row included.
    ///
    /// Concurrent applies touching the same purchase or user serialize on transaction-scoped
    /// advisory locks taken before the snapshot is read, so neither plans from a stale snapshot.
    public func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(StorageError) -> ApplyResult {
        try await transaction("apply evidence \(evidence.idempotencyKey)") { rows in
            guard let evidenceID = try await rows.all(PostgresStatements.InsertEvidence(evidence: evidence)).first else {
                let existing = try await rows.all(PostgresStatements.EvidenceIDForKey(key: evidence.idempotencyKey)).first
                guard let existing else {
                    throw StorageError.database(
                        operation: "apply evidence \(evidence.idempotencyKey)", reason: "the idempotency key conflicted but no row holds it")
                }
                return .duplicate(evidenceID: existing)
            }
            let snapshot = try await rows.snapshot(for: evidence)
            let plan = try applier.plan(for: evidence, snapshot: snapshot, now: now)
            try await rows.write(plan, evidenceID: evidenceID, now: now)
            var presenter: PresenterState?
            if let user = evidence.presentedBy {
                presenter = PresenterState(
                    user: user, grants: try await Self.grants(of: user, appBundleID: evidence.appBundleID, rows),
                    appTransaction: try await Self.appTransaction(of: user, appBundleID: evidence.appBundleID, rows))
            }
            return .applied(
                AppliedEvidence(
                    evidenceID: evidenceID, views: plan.views, events: plan.outbox, ownershipChanges: plan.ownershipChanges, presenter: presenter))
        }
    }
}

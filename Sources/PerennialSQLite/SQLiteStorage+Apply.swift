public import Foundation
import GRDB
public import PerennialStorage

extension SQLiteStorage {
    /// One write transaction: idempotency check, snapshot, plan, evidence row (with the plan's
    /// analytics change, ``SQLiteAnalyticsJournal``), writes. Any error — the applier's or the
    /// database's — rolls all of it back, evidence row included.
    public func apply(_ evidence: IncomingEvidence, with applier: EvidenceApplier, now: Date) async throws(StorageError) -> ApplyResult {
        try await write("apply evidence \(evidence.idempotencyKey)") { db in
            if let existing = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM evidence WHERE idempotency_key = ?"), arguments: [evidence.idempotencyKey])
            {
                return .duplicate(evidenceID: existing)
            }
            let snapshot = try SQLiteRows.snapshot(for: evidence, db)
            let plan = try applier.plan(for: evidence, snapshot: snapshot, now: now)
            let evidenceID = try SQLiteRows.insert(evidence, analyticsChange: SQLiteAnalyticsJournal.column(for: plan.analytics), db)
            try SQLiteRows.write(plan, evidenceID: evidenceID, now: now, db)
            try SQLiteAnalyticsJournal.foldIfDue(after: evidenceID, db)
            let presenter = try evidence.presentedBy.map { user in
                PresenterState(
                    user: user, grants: try Self.grants(of: user, appBundleID: evidence.appBundleID, db),
                    appTransaction: try Self.appTransaction(of: user, appBundleID: evidence.appBundleID, db))
            }
            return .applied(
                AppliedEvidence(
                    evidenceID: evidenceID, views: plan.views, events: plan.outbox, ownershipChanges: plan.ownershipChanges, presenter: presenter))
        }
    }
}

public import Foundation
import PostgresNIO
public import PerennialStorage

extension PostgresStorage {
    /// One statement leases the earliest due checks (see ``PostgresReconciliationStatements/Claim``);
    /// any number of processes may claim at once.
    public func claimDueChecks(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [ReconciliationCheck] {
        let claim = PostgresReconciliationStatements.Claim(now: now, limit: limit, owner: owner, leaseExpiresAt: now.addingTimeInterval(leaseFor))
        return try await withRows("claim reconciliation checks") { rows in
            try await rows.all(claim).sorted { ($0.dueAt, $0.originalTransactionID) < ($1.dueAt, $1.originalTransactionID) }
        }
    }

    public func completeCheck(originalTransactionID: String, owner: String, now: Date, notBefore: Date) async throws(StorageError) -> Bool {
        let complete = PostgresReconciliationStatements.Complete(
            now: now, notBefore: notBefore, originalTransactionID: originalTransactionID, owner: owner)
        return try await withRows("complete reconciliation check \(originalTransactionID)") { rows in
            try await !rows.all(complete).isEmpty
        }
    }

    public func failCheck(
        originalTransactionID: String, owner: String, attempts: Int, nextAttemptAt: Date, error: String, now: Date
    ) async throws(StorageError) -> Bool {
        let fail = PostgresReconciliationStatements.Fail(
            attempts: attempts, error: error, nextAttemptAt: nextAttemptAt, originalTransactionID: originalTransactionID, owner: owner)
        let detail = String(
            decoding: try StorageJSON.encode(
                AuditDetail.failedCheck(
                    originalTransactionID: originalTransactionID, error: error, attempts: attempts, nextAttemptAt: nextAttemptAt),
                what: "audit detail"),
            as: UTF8.self)
        let at = now.timeIntervalSince1970
        let kind = AuditKind.reconciliationFailed.rawValue
        return try await transaction("fail reconciliation check \(originalTransactionID)") { rows in
            guard try await !rows.all(fail).isEmpty else { return false }
            try await rows.connection.query(
                """
                INSERT INTO audit (app_user_id, app_bundle_id, at, kind, detail, evidence_id)
                SELECT app_user_id, app_bundle_id, \(at), \(kind), \(detail), NULL FROM bindings WHERE original_transaction_id = \(originalTransactionID)
                """, logger: rows.logger)
            return true
        }
    }

    /// The singleton row's conditional update decides which process sweeps: concurrent callers
    /// serialize on its row lock and all but the first find the condition false.
    public func scheduleSweep(now: Date, interval: TimeInterval) async throws(StorageError) -> Int? {
        let at = now.timeIntervalSince1970
        let threshold = at - interval
        return try await transaction("schedule reconciliation sweep") { rows in
            let won = try await rows.connection.query(
                """
                UPDATE reconciliation_sweeps SET last_sweep_at = \(at)
                WHERE id = 1 AND (last_sweep_at IS NULL OR last_sweep_at <= \(threshold)) RETURNING id
                """, logger: rows.logger)
            var claimed = false
            for try await _ in won.decode(Int32.self) { claimed = true }
            guard claimed else { return nil }
            let due = try await rows.connection.query(
                """
                UPDATE reconciliation_checks SET due_at = \(at)
                WHERE swept_until IS NOT NULL AND swept_until > \(at) AND (due_at IS NULL OR due_at > \(at))
                RETURNING original_transaction_id
                """, logger: rows.logger)
            var count = 0
            for try await _ in due.decode(String.self) { count += 1 }
            return count
        }
    }

    public func latestReceipt(appBundleID: String, originalTransactionID: String) async throws(StorageError) -> StoredEvidence? {
        let id = try await withRows("find latest receipt of \(originalTransactionID)") { rows -> Int64? in
            let found = try await rows.connection.query(
                """
                SELECT receipt_evidence_id FROM reconciliation_checks
                WHERE original_transaction_id = \(originalTransactionID) AND app_bundle_id = \(appBundleID)
                """, logger: rows.logger)
            for try await id in found.decode(Int64?.self) { return id }
            return nil
        }
        guard let id else { return nil }
        return try await evidence(id: id)
    }

    public func latestNotificationDate(appBundleID: String) async throws(StorageError) -> Date? {
        let kind = EvidenceKind.notificationV2.rawValue
        return try await withRows("find latest notification of \(appBundleID)") { rows -> Date? in
            let found = try await rows.connection.query(
                "SELECT MAX(received_at) FROM evidence WHERE app_bundle_id = \(appBundleID) AND kind = \(kind)", logger: rows.logger)
            for try await latest in found.decode(Double?.self) { return latest.map(Date.init(timeIntervalSince1970:)) }
            return nil
        }
    }
}

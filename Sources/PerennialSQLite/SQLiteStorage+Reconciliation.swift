public import Foundation
import GRDB
import PerennialCore
public import PerennialStorage

extension SQLiteStorage {
    public func claimDueChecks(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [ReconciliationCheck] {
        try await write("claim reconciliation checks") { db in
            try SQLiteLease(table: "reconciliation_checks", key: "original_transaction_id").claim(
                db, columns: "original_transaction_id, app_bundle_id, environment, due_at, attempts", due: "due_at IS NOT NULL AND due_at <= ?",
                arguments: [now.timeIntervalSince1970], order: "due_at, original_transaction_id", limit: limit, owner: owner, now: now, leaseFor: leaseFor
            ) { row in
                ReconciliationCheck(
                    originalTransactionID: row["original_transaction_id"], appBundleID: row["app_bundle_id"],
                    environment: AppStoreEnvironment(rawValue: row["environment"]), dueAt: Date(timeIntervalSince1970: row["due_at"]),
                    attempts: row["attempts"])
            }
        }
    }

    public func completeCheck(originalTransactionID: String, owner: String, now: Date, notBefore: Date) async throws(StorageError) -> Bool {
        try await write("complete reconciliation check \(originalTransactionID)") { db in
            try db.cachedStatement(
                sql: """
                    UPDATE reconciliation_checks SET lease_owner = NULL, lease_expires_at = NULL, attempts = 0, last_error = NULL,
                        due_at = CASE WHEN due_at IS NULL OR due_at > ? THEN due_at ELSE ? END
                    WHERE original_transaction_id = ? AND lease_owner = ?
                    """
            ).execute(arguments: [now.timeIntervalSince1970, notBefore.timeIntervalSince1970, originalTransactionID, owner])
            return db.changesCount == 1
        }
    }

    public func failCheck(
        originalTransactionID: String, owner: String, attempts: Int, nextAttemptAt: Date, error: String, now: Date
    ) async throws(StorageError) -> Bool {
        let detail = try StorageJSON.encode(
            AuditDetail.failedCheck(originalTransactionID: originalTransactionID, error: error, attempts: attempts, nextAttemptAt: nextAttemptAt),
            what: "audit detail")
        return try await write("fail reconciliation check \(originalTransactionID)") { db in
            try db.cachedStatement(
                sql: """
                    UPDATE reconciliation_checks SET lease_owner = NULL, lease_expires_at = NULL, attempts = ?, last_error = ?, due_at = ?
                    WHERE original_transaction_id = ? AND lease_owner = ?
                    """
            ).execute(arguments: [attempts, error, nextAttemptAt.timeIntervalSince1970, originalTransactionID, owner])
            guard db.changesCount == 1 else { return false }
            try db.cachedStatement(
                sql: """
                    INSERT INTO audit (app_user_id, app_bundle_id, at, kind, detail, evidence_id)
                    SELECT app_user_id, app_bundle_id, ?, ?, ?, NULL FROM bindings WHERE original_transaction_id = ?
                    """
            ).execute(arguments: [
                now.timeIntervalSince1970, AuditKind.reconciliationFailed.rawValue, String(decoding: detail, as: UTF8.self), originalTransactionID,
            ])
            return true
        }
    }

    public func scheduleSweep(now: Date, interval: TimeInterval) async throws(StorageError) -> Int? {
        let at = now.timeIntervalSince1970
        return try await write("schedule reconciliation sweep") { db in
            try db.execute(
                sql: "UPDATE reconciliation_sweeps SET last_sweep_at = ? WHERE id = 1 AND (last_sweep_at IS NULL OR last_sweep_at <= ?)",
                arguments: [at, at - interval])
            guard db.changesCount == 1 else { return nil }
            try db.execute(
                sql: """
                    UPDATE reconciliation_checks SET due_at = ?
                    WHERE swept_until IS NOT NULL AND swept_until > ? AND (due_at IS NULL OR due_at > ?)
                    """,
                arguments: [at, at, at])
            return db.changesCount
        }
    }

    public func latestReceipt(appBundleID: String, originalTransactionID: String) async throws(StorageError) -> StoredEvidence? {
        let id = try await read("find latest receipt of \(originalTransactionID)") { db in
            try Int64.fetchOne(
                db.cachedStatement(
                    sql: "SELECT receipt_evidence_id FROM reconciliation_checks WHERE original_transaction_id = ? AND app_bundle_id = ?"),
                arguments: [originalTransactionID, appBundleID])
        }
        guard let id else { return nil }
        return try await evidence(id: id)
    }

    public func latestNotificationDate(appBundleID: String) async throws(StorageError) -> Date? {
        try await read("find latest notification of \(appBundleID)") { db in
            try Double.fetchOne(
                db, sql: "SELECT MAX(received_at) FROM evidence WHERE app_bundle_id = ? AND kind = ?",
                arguments: [appBundleID, EvidenceKind.notificationV2.rawValue]
            ).map(Date.init(timeIntervalSince1970:))
        }
    }
}

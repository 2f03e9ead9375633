import Foundation
import PerennialCore
import PerennialStorage
import PostgresNIO

/// The reconciliation schedule's statements, prepared once per pooled connection: the claim and
/// completions of every check (an apply upserts its checks through ``PostgresPlanWrites``).
enum PostgresReconciliationStatements {
    /// Leases the earliest due checks; `FOR UPDATE SKIP LOCKED` lets concurrent claimers pass over
    /// each other's rows, and a row leased meanwhile fails the re-checked lease condition.
    struct Claim: PostgresPreparedStatement {
        static let sql = """
            WITH due AS (
                SELECT original_transaction_id FROM reconciliation_checks
                WHERE due_at IS NOT NULL AND due_at <= $1 AND (lease_expires_at IS NULL OR lease_expires_at <= $1)
                ORDER BY due_at LIMIT $2
                FOR UPDATE SKIP LOCKED)
            UPDATE reconciliation_checks c SET lease_owner = $3, lease_expires_at = $4
            FROM due WHERE c.original_transaction_id = due.original_transaction_id
            RETURNING c.original_transaction_id, c.app_bundle_id, c.environment, c.due_at, c.attempts
            """
        let now: Date
        let limit: Int
        let owner: String
        let leaseExpiresAt: Date

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(now.timeIntervalSince1970)
            bindings.append(Int64(limit))
            bindings.append(owner)
            bindings.append(leaseExpiresAt.timeIntervalSince1970)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> ReconciliationCheck {
            let (id, app, environment, dueAt, attempts) = try row.decode((String, String, String, Double, Int32).self)
            return ReconciliationCheck(
                originalTransactionID: id, appBundleID: app, environment: AppStoreEnvironment(rawValue: environment),
                dueAt: Date(timeIntervalSince1970: dueAt), attempts: Int(attempts))
        }
    }

    struct Complete: PostgresPreparedStatement {
        static let sql = """
            UPDATE reconciliation_checks SET lease_owner = NULL, lease_expires_at = NULL, attempts = 0, last_error = NULL,
                due_at = CASE WHEN due_at IS NULL OR due_at > $1 THEN due_at ELSE $2 END
            WHERE original_transaction_id = $3 AND lease_owner = $4 RETURNING attempts
            """
        let now: Date
        let notBefore: Date
        let originalTransactionID: String
        let owner: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(now.timeIntervalSince1970)
            bindings.append(notBefore.timeIntervalSince1970)
            bindings.append(originalTransactionID)
            bindings.append(owner)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int32 { try row.decode(Int32.self) }
    }

    struct Fail: PostgresPreparedStatement {
        static let sql = """
            UPDATE reconciliation_checks SET lease_owner = NULL, lease_expires_at = NULL, attempts = $1, last_error = $2, due_at = $3
            WHERE original_transaction_id = $4 AND lease_owner = $5 RETURNING attempts
            """
        let attempts: Int
        let error: String
        let nextAttemptAt: Date
        let originalTransactionID: String
        let owner: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(Int32(clamping: attempts))
            bindings.append(error)
            bindings.append(nextAttemptAt.timeIntervalSince1970)
            bindings.append(originalTransactionID)
            bindings.append(owner)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int32 { try row.decode(Int32.self) }
    }
}

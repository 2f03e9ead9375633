import Foundation
import PerennialCore
import PerennialStorage
import PostgresNIO

/// The reconciliation schedule's statements, prepared once per pooled connection: the claim and
/// completions of every check (an apply upserts its checks through ``PostgresPlanWrites``).
enum PostgresReconciliationStatements {
    /// Leases the earliest due checks.
    struct Claim: PostgresLeaseClaim {
        static let table = "reconciliation_checks"
        static let key = "original_transaction_id"
        static let due = "due_at IS NOT NULL AND due_at <= $1"
        static let order = "due_at, original_transaction_id"
        static let columns = ["original_transaction_id", "app_bundle_id", "environment", "due_at", "attempts"]
        let now: Date
        let limit: Int
        let owner: String
        let leaseExpiresAt: Date

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

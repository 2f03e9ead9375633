import Foundation
import GRDB

/// The lease every job claims its work under on SQLite (webhook deliveries, reconciliation checks,
/// refund requests, leased jobs): a table with `lease_owner` and `lease_expires_at` columns, whose
/// due rows one write transaction selects and leases, so two claimers (threads or processes on the
/// same file: SQLite has one writer at a time) never lease the same row, and a row whose lease
/// expired — its claimer died — is due again.
struct SQLiteLease {
    /// The leased table and its key column.
    let table: String
    let key: String

    /// Leases up to `limit` rows of the table that `due` (a condition on the table's columns, with
    /// `arguments`) says are due and no live lease holds, taken in `order`, for `owner` until
    /// `leaseFor` after `now`; returns them as `decode` reads the row of `columns`, in that order.
    func claim<T>(
        _ db: Database, columns: String, due: String, arguments: StatementArguments, order: String, limit: Int, owner: String, now: Date,
        leaseFor: TimeInterval, decode: (Row) throws -> T
    ) throws -> [T] {
        let at = now.timeIntervalSince1970
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(columns), \(key) AS lease_key FROM \(table)
                    WHERE (\(due)) AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
                    ORDER BY \(order) LIMIT ?
                    """),
            arguments: arguments + [at, limit])
        let lease = try db.cachedStatement(sql: "UPDATE \(table) SET lease_owner = ?, lease_expires_at = ? WHERE \(key) = ?")
        let expires = now.addingTimeInterval(leaseFor).timeIntervalSince1970
        return try rows.map { row in
            try lease.execute(arguments: [owner, expires, row["lease_key"] as DatabaseValue])
            return try decode(row)
        }
    }
}

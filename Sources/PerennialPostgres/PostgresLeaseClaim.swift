import Foundation
import PostgresNIO

/// The lease every job claims its work under on PostgreSQL (webhook deliveries, reconciliation
/// checks, refund requests, leased jobs): a table with `lease_owner` and `lease_expires_at`
/// columns, whose due rows one prepared statement selects and leases. `FOR UPDATE SKIP LOCKED`
/// lets instances claiming at once pass over each other's rows instead of waiting, and a row
/// leased (and committed) by another claimer meanwhile fails the re-checked lease condition, so it
/// is not taken twice; a row whose lease expired — its claimer died — is due again.
///
/// A claim declares its table, key, due condition and order; the statement and the lease's four
/// parameters (`$1` now, `$2` the limit, `$3` the owner, `$4` the lease's end) are written here once.
protocol PostgresLeaseClaim: PostgresPreparedStatement {
    static var table: String { get }
    static var key: String { get }
    /// The rows that are due, beside the lease's own condition; its parameters start at `$5`.
    static var due: String { get }
    static var order: String { get }
    /// The columns returned, as `decodeRow` reads them.
    static var columns: [String] { get }

    var now: Date { get }
    var limit: Int { get }
    var owner: String { get }
    var leaseExpiresAt: Date { get }
    /// Binds the due condition's parameters, from `$5`.
    func bindDue(_ bindings: inout PostgresBindings)
}

extension PostgresLeaseClaim {
    static var sql: String {
        """
        WITH due AS (
            SELECT \(key) FROM \(table)
            WHERE (\(due)) AND (lease_expires_at IS NULL OR lease_expires_at <= $1)
            ORDER BY \(order) LIMIT $2
            FOR UPDATE SKIP LOCKED)
        UPDATE \(table) SET lease_owner = $3, lease_expires_at = $4 FROM due WHERE \(table).\(key) = due.\(key)
        RETURNING \(columns.map { "\(table).\($0)" }.joined(separator: ", "))
        """
    }

    func bindDue(_ bindings: inout PostgresBindings) {}

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(now.timeIntervalSince1970)
        bindings.append(Int64(limit))
        bindings.append(owner)
        bindings.append(leaseExpiresAt.timeIntervalSince1970)
        bindDue(&bindings)
        return bindings
    }
}

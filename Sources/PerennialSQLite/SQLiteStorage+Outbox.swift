public import Foundation
import GRDB
public import PerennialStorage

extension SQLiteStorage {
    /// Leases the due heads of each subscriber's queue: a subscriber's events are delivered in order.
    public func claimDeliveries(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [WebhookDelivery] {
        try await write("claim webhook deliveries") { db in
            try SQLiteLease(table: "outbox", key: "id").claim(
                db, columns: Self.deliveryColumnList,
                due: """
                    delivered_at IS NULL AND dead_at IS NULL AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
                    AND id = (SELECT MIN(p.id) FROM outbox p
                              WHERE p.app_bundle_id = outbox.app_bundle_id AND p.app_user_id = outbox.app_user_id
                                AND p.delivered_at IS NULL AND p.dead_at IS NULL)
                    """,
                arguments: [now.timeIntervalSince1970], order: "id", limit: limit, owner: owner, now: now, leaseFor: leaseFor
            ) { row in
                // The row as read, before the lease it now carries.
                var delivery = try Self.delivery(from: row)
                delivery.leaseOwner = owner
                delivery.leaseExpiresAt = Date(timeIntervalSince1970: now.addingTimeInterval(leaseFor).timeIntervalSince1970)
                return delivery
            }
        }
    }

    public func markDelivered(id: Int64, owner: String, at: Date) async throws(StorageError) -> Bool {
        try await write("mark webhook delivery \(id) delivered") { db in
            try db.cachedStatement(
                sql: """
                    UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_error = NULL, lease_owner = NULL,
                                      lease_expires_at = NULL
                    WHERE id = ? AND lease_owner = ? AND delivered_at IS NULL AND dead_at IS NULL
                    """
            ).execute(arguments: [at.timeIntervalSince1970, id, owner])
            return db.changesCount == 1
        }
    }

    public func markFailed(
        id: Int64, owner: String, attempts: Int, nextAttemptAt: Date, error: String, acceptedEndpoints: [String]
    ) async throws(StorageError) -> Bool {
        let accepted = try Self.json(acceptedEndpoints)
        return try await write("mark webhook delivery \(id) failed") { db in
            try db.cachedStatement(
                sql: """
                    UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, accepted_endpoints = ?,
                                      lease_owner = NULL, lease_expires_at = NULL
                    WHERE id = ? AND lease_owner = ? AND delivered_at IS NULL AND dead_at IS NULL
                    """
            ).execute(arguments: [attempts, nextAttemptAt.timeIntervalSince1970, error, accepted, id, owner])
            return db.changesCount == 1
        }
    }

    public func deadLetter(
        id: Int64, owner: String, attempts: Int, error: String, acceptedEndpoints: [String], at: Date
    ) async throws(StorageError) -> Bool {
        let accepted = try Self.json(acceptedEndpoints)
        return try await write("dead-letter webhook delivery \(id)") { db in
            try db.cachedStatement(
                sql: """
                    UPDATE outbox SET attempts = ?, dead_at = ?, last_error = ?, accepted_endpoints = ?,
                                      lease_owner = NULL, lease_expires_at = NULL
                    WHERE id = ? AND lease_owner = ? AND delivered_at IS NULL AND dead_at IS NULL
                    """
            ).execute(arguments: [attempts, at.timeIntervalSince1970, error, accepted, id, owner])
            return db.changesCount == 1
        }
    }

    public func listDeliveries(state: WebhookDelivery.State, limit: Int) async throws(StorageError) -> [WebhookDelivery] {
        let filter =
            switch state {
            case .pending: "WHERE delivered_at IS NULL AND dead_at IS NULL ORDER BY id"
            case .delivered: "WHERE delivered_at IS NOT NULL ORDER BY id DESC"
            case .dead: "WHERE dead_at IS NOT NULL AND delivered_at IS NULL ORDER BY id DESC"
            }
        return try await read("list \(state.rawValue) webhook deliveries") { db in
            try Row.fetchAll(db.cachedStatement(sql: "\(Self.deliveryColumns) \(filter) LIMIT ?"), arguments: [limit])
                .map { row throws(StorageError) in try Self.delivery(from: row) }
        }
    }

    public func redeliver(id: Int64, now: Date) async throws(StorageError) -> Bool {
        try await write("redeliver webhook delivery \(id)") { db in
            try db.cachedStatement(sql: "\(Self.requeue) WHERE id = ? AND (delivered_at IS NOT NULL OR dead_at IS NOT NULL)")
                .execute(arguments: [now.timeIntervalSince1970, id])
            return db.changesCount == 1
        }
    }

    public func requeueDelivered(appBundleID: String?, appUserID: AppUserID?, since: Date?, now: Date) async throws(StorageError) -> Int {
        try await write("requeue delivered webhook deliveries") { db in
            try db.cachedStatement(
                sql: """
                    \(Self.requeue) WHERE delivered_at IS NOT NULL AND (? IS NULL OR app_bundle_id = ?) AND (? IS NULL OR app_user_id = ?)
                      AND (? IS NULL OR created_at >= ?)
                    """
            ).execute(arguments: [
                now.timeIntervalSince1970, appBundleID, appBundleID, appUserID?.rawValue, appUserID?.rawValue, since?.timeIntervalSince1970,
                since?.timeIntervalSince1970,
            ])
            return db.changesCount
        }
    }

    /// Back to pending, due at the bound instant, as if never attempted.
    private static let requeue = """
        UPDATE outbox SET delivered_at = NULL, dead_at = NULL, attempts = 0, next_attempt_at = ?, last_error = NULL,
                          accepted_endpoints = '[]', lease_owner = NULL, lease_expires_at = NULL
        """

    private static let deliveryColumnList = """
        id, event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at, attempts, next_attempt_at,
        delivered_at, dead_at, last_error, accepted_endpoints, lease_owner, lease_expires_at
        """
    private static let deliveryColumns = "SELECT \(deliveryColumnList) FROM outbox"

    private static func delivery(from row: Row) throws(StorageError) -> WebhookDelivery {
        let id: Int64 = row["id"]
        let accepted = try StorageJSON.decode(
            [String].self, from: row["accepted_endpoints"] as String, table: "outbox", key: "\(id)")
        return WebhookDelivery(
            entry: OutboxEntry(
                id: id,
                event: OutboxEntry.Draft(
                    eventID: row["event_id"], appUserID: AppUserID(rawValue: row["app_user_id"]), appBundleID: row["app_bundle_id"],
                    kind: row["kind"], occurredAt: Date(timeIntervalSince1970: row["occurred_at"]),
                    payload: Data((row["payload"] as String).utf8)),
                createdAt: Date(timeIntervalSince1970: row["created_at"]), attempts: row["attempts"],
                nextAttemptAt: (row["next_attempt_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                deliveredAt: (row["delivered_at"] as Double?).map(Date.init(timeIntervalSince1970:))),
            acceptedEndpoints: accepted, lastError: row["last_error"],
            deadAt: (row["dead_at"] as Double?).map(Date.init(timeIntervalSince1970:)), leaseOwner: row["lease_owner"],
            leaseExpiresAt: (row["lease_expires_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    private static func json(_ endpoints: [String]) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(endpoints, what: "accepted endpoints"), as: UTF8.self)
    }
}

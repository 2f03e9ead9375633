public import Foundation
import GRDB
public import PerennialStorage

extension SQLiteStorage {
    /// One write transaction selects the due heads of each subscriber's queue and leases them;
    /// GRDB serializes writers, so two claims never lease the same entry.
    public func claimDeliveries(owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [WebhookDelivery] {
        let at = now.timeIntervalSince1970
        let expires = now.addingTimeInterval(leaseFor).timeIntervalSince1970
        return try await write("claim webhook deliveries") { db in
            let ids = try Int64.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT o.id FROM outbox o
                        WHERE o.delivered_at IS NULL AND o.dead_at IS NULL
                          AND (o.next_attempt_at IS NULL OR o.next_attempt_at <= ?)
                          AND (o.lease_expires_at IS NULL OR o.lease_expires_at <= ?)
                          AND o.id = (SELECT MIN(p.id) FROM outbox p
                                      WHERE p.app_bundle_id = o.app_bundle_id AND p.app_user_id = o.app_user_id
                                        AND p.delivered_at IS NULL AND p.dead_at IS NULL)
                        ORDER BY o.id LIMIT ?
                        """),
                arguments: [at, at, limit])
            let lease = try db.cachedStatement(sql: "UPDATE outbox SET lease_owner = ?, lease_expires_at = ? WHERE id = ?")
            var claimed: [WebhookDelivery] = []
            for id in ids {
                try lease.execute(arguments: [owner, expires, id])
                if let row = try Row.fetchOne(db.cachedStatement(sql: "\(Self.deliveryColumns) WHERE id = ?"), arguments: [id]) {
                    claimed.append(try Self.delivery(from: row))
                }
            }
            return claimed
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

    public func requeueDelivered(appUserID: AppUserID?, since: Date?, now: Date) async throws(StorageError) -> Int {
        try await write("requeue delivered webhook deliveries") { db in
            try db.cachedStatement(
                sql: "\(Self.requeue) WHERE delivered_at IS NOT NULL AND (? IS NULL OR app_user_id = ?) AND (? IS NULL OR created_at >= ?)"
            ).execute(arguments: [
                now.timeIntervalSince1970, appUserID?.rawValue, appUserID?.rawValue, since?.timeIntervalSince1970,
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

    private static let deliveryColumns = """
        SELECT id, event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at, attempts, next_attempt_at,
               delivered_at, dead_at, last_error, accepted_endpoints, lease_owner, lease_expires_at
        FROM outbox
        """

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

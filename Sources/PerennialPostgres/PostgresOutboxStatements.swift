import Foundation
import PerennialStorage
import PostgresNIO

/// The webhook job's statements, prepared once per pooled connection like the apply path's
/// (``PostgresStatements``): the claim and the completions run for every delivery.
enum PostgresOutboxStatements {
    static let deliveryColumns = """
        id, event_id, app_user_id, app_bundle_id, kind, occurred_at, payload, created_at, attempts, next_attempt_at,
        delivered_at, dead_at, last_error, accepted_endpoints, lease_owner, lease_expires_at
        """

    /// Leases the due heads of the subscribers' queues: a subscriber's events are delivered in order.
    struct Claim: PostgresLeaseClaim {
        static let table = "outbox"
        static let key = "id"
        static let due = """
            delivered_at IS NULL AND dead_at IS NULL AND (next_attempt_at IS NULL OR next_attempt_at <= $1)
            AND NOT EXISTS (SELECT 1 FROM outbox p
                            WHERE p.app_bundle_id = outbox.app_bundle_id AND p.app_user_id = outbox.app_user_id
                              AND p.delivered_at IS NULL AND p.dead_at IS NULL AND p.id < outbox.id)
            """
        static let order = "id"
        static let columns = [
            "id", "event_id", "app_user_id", "app_bundle_id", "kind", "occurred_at", "payload", "created_at", "attempts", "next_attempt_at",
            "delivered_at", "dead_at", "last_error", "accepted_endpoints", "lease_owner", "lease_expires_at",
        ]
        let now: Date
        let limit: Int
        let owner: String
        let leaseExpiresAt: Date

        func decodeRow(_ row: PostgresRow) throws -> WebhookDelivery { try PostgresOutboxStatements.delivery(from: row) }
    }

    struct MarkDelivered: PostgresPreparedStatement {
        static let sql = """
            UPDATE outbox SET delivered_at = $1, attempts = attempts + 1, last_error = NULL, lease_owner = NULL,
                              lease_expires_at = NULL
            WHERE id = $2 AND lease_owner = $3 AND delivered_at IS NULL AND dead_at IS NULL RETURNING id
            """
        let at: Date
        let id: Int64
        let owner: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(at.timeIntervalSince1970)
            bindings.append(id)
            bindings.append(owner)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// A failed attempt: `$2` is the next attempt time for a retry, or the dead-letter time when
    /// `$6` is true (so one prepared statement serves both outcomes).
    struct MarkFailed: PostgresPreparedStatement {
        static let sql = """
            UPDATE outbox SET attempts = $1,
                              next_attempt_at = CASE WHEN $6 THEN next_attempt_at ELSE $2 END,
                              dead_at = CASE WHEN $6 THEN $2 ELSE NULL END,
                              last_error = $3, accepted_endpoints = $4, lease_owner = NULL, lease_expires_at = NULL
            WHERE id = $5 AND lease_owner = $7 AND delivered_at IS NULL AND dead_at IS NULL RETURNING id
            """
        let attempts: Int
        let at: Date
        let error: String
        let acceptedEndpoints: String
        let id: Int64
        let dead: Bool
        let owner: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(Int32(clamping: attempts))
            bindings.append(at.timeIntervalSince1970)
            bindings.append(error)
            bindings.append(acceptedEndpoints)
            bindings.append(id)
            bindings.append(dead)
            bindings.append(owner)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// One outbox row with its delivery state (columns in ``deliveryColumns`` order).
    static func delivery(from row: PostgresRow) throws -> WebhookDelivery {
        let cells = row.makeRandomAccess()
        let id = try cells[0].decode(Int64.self)
        let accepted = try StorageJSON.decode(
            [String].self, from: try cells[13].decode(String.self), table: "outbox", key: "\(id)")
        return WebhookDelivery(
            entry: OutboxEntry(
                id: id,
                event: OutboxEntry.Draft(
                    eventID: try cells[1].decode(String.self), appUserID: AppUserID(rawValue: try cells[2].decode(String.self)),
                    appBundleID: try cells[3].decode(String.self), kind: try cells[4].decode(String.self),
                    occurredAt: Date(timeIntervalSince1970: try cells[5].decode(Double.self)),
                    payload: Data(try cells[6].decode(String.self).utf8)),
                createdAt: Date(timeIntervalSince1970: try cells[7].decode(Double.self)), attempts: Int(try cells[8].decode(Int32.self)),
                nextAttemptAt: try cells[9].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
                deliveredAt: try cells[10].decode(Double?.self).map(Date.init(timeIntervalSince1970:))),
            acceptedEndpoints: accepted, lastError: try cells[12].decode(String?.self),
            deadAt: try cells[11].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
            leaseOwner: try cells[14].decode(String?.self),
            leaseExpiresAt: try cells[15].decode(Double?.self).map(Date.init(timeIntervalSince1970:)))
    }
}
